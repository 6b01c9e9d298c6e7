// Checks that package.json and the compiled settings module agree: every
// memory.* setting the extension contributes is one the server reads, and
// unset settings are left out of what the server receives.

'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const settings = require('../out/settings.js');
const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));

test('package.json contributes', () => {
  assert.equal(pkg.activationEvents[0], 'workspaceContains:**/.memory/*.md');
  assert.equal(pkg.main, './out/extension.js');
  const props = pkg.contributes.configuration.properties;
  assert.equal(props['memoryLsp.path'].default, 'memory-lsp');
  assert.deepEqual(props['memoryLsp.trace.server'].enum, ['off', 'messages', 'verbose']);
  const memoryKeys = Object.keys(props)
    .filter((k) => k.startsWith('memory.'))
    .map((k) => k.slice('memory.'.length))
    .sort();
  assert.deepEqual(memoryKeys, [...settings.SETTINGS_KEYS].sort());
  const titles = Object.fromEntries(pkg.contributes.commands.map((c) => [c.command, `${c.category}: ${c.title}`]));
  assert.equal(titles['memoryLsp.store'], 'Memory: Store');
  assert.equal(titles['memoryLsp.query'], 'Memory: Query');
  assert.equal(titles['memoryLsp.cleanup'], 'Memory: Cleanup');
  // Our palette ids must not collide with the server's (registered by the client).
  for (const id of Object.keys(titles)) assert.ok(!id.startsWith('memory.'), id);
});

test('category files are the server\'s names (security.md, not securitys.md)', () => {
  assert.deepEqual(settings.CATEGORY_FILES, {
    Instruction: 'instructions.md',
    Quirk: 'quirks.md',
    Preference: 'preferences.md',
    Decision: 'decisions.md',
    Security: 'security.md',
  });
  assert.deepEqual(Object.keys(settings.CATEGORY_FILES), [...settings.CATEGORIES]);
  // The settings UI's description of each category limit names its file.
  const limits = pkg.contributes.configuration.properties['memory.categoryLimit'].properties;
  assert.deepEqual(Object.keys(limits), [...settings.CATEGORIES]);
  for (const c of settings.CATEGORIES) {
    const names = limits[c].description.match(/[a-z]+\.md/g);
    assert.deepEqual(names, [settings.CATEGORY_FILES[c]], `${c}: ${limits[c].description}`);
  }
  const src = fs.readFileSync(path.join(__dirname, '..', 'src', 'extension.ts'), 'utf8');
  assert.doesNotMatch(src, /toLowerCase\(\)\}s\.md/, 'the Store picker derives file names');
});

test('extension.ts selects the memory files and the agents\' files only', () => {
  const src = fs.readFileSync(path.join(__dirname, '..', 'src', 'extension.ts'), 'utf8');
  assert.match(src, /documentSelector: DOCUMENT_PATTERNS\.map\(\(pattern\) => \(\{ scheme: 'file', pattern \}\)\)/);
  assert.deepEqual(settings.DOCUMENT_PATTERNS, ['**/.memory/*.md', ...settings.AGENT_FILES.map((g) => `**/${g}`)]);
  // It activates in a workspace holding any of them.
  assert.ok(settings.AGENT_FILES.includes('AGENTS.md') && settings.AGENT_FILES.includes('.cursor/rules/*.mdc'));
  assert.deepEqual(pkg.activationEvents, [
    'workspaceContains:**/.memory/*.md',
    ...settings.AGENT_FILES.map((g) => `workspaceContains:${g}`),
  ]);
});

test('contributed defaults send nothing', () => {
  const props = pkg.contributes.configuration.properties;
  const defaults = Object.fromEntries(
    settings.SETTINGS_KEYS.map((k) => [k, props[`memory.${k}`].default]),
  );
  assert.deepEqual(settings.buildInitializationOptions(settings.fromObject(defaults)), { memory: {} });
});

test('storeArguments and validation', () => {
  assert.deepEqual(settings.storeArguments('Decision', ' Use Go. ', ' '), { category: 'Decision', content: 'Use Go.' });
  assert.deepEqual(settings.storeArguments('Decision', 'Use Go.', 'lang', 'file:///p'), {
    category: 'Decision',
    content: 'Use Go.',
    slug: 'lang',
    root: 'file:///p',
  });
  assert.equal(settings.validateSlug(''), undefined);
  assert.equal(settings.validateSlug('db-choice-2'), undefined);
  assert.ok(settings.validateSlug('My Slug'));
  assert.ok(settings.validateSlug('a_b'));
  assert.ok(settings.validateContent('  '));
  assert.ok(settings.validateContent('a\nb'));
  assert.equal(settings.validateContent('Use Go.'), undefined);
});

test('HackLM\'s category limits fill the ones memory.* leaves unset', () => {
  const hacklm = settings.fromObject({ 'categoryLimit.Quirk': 80, 'categoryLimit.Decision': 10, 'categoryLimit.Bogus': 5, autoApproveStore: true });
  assert.deepEqual(settings.memorySettings(settings.fromObject({ categoryLimit: { Decision: 60 } }), hacklm), {
    categoryLimit: { Decision: 60, Quirk: 80 },
  });
  assert.deepEqual(settings.memorySettings(settings.fromObject({}), hacklm), { categoryLimit: { Quirk: 80, Decision: 10 } });
  assert.deepEqual(settings.memorySettings(settings.fromObject({}), settings.fromObject({})), {});
  assert.deepEqual(settings.memorySettings(settings.fromObject({ skipThreshold: 0.7 })), { skipThreshold: 0.7 });
});

test('the status bar item reads as HackLM\'s', () => {
  assert.equal(settings.statusText(0), '$(brain) Memory (0)');
  assert.equal(settings.statusText(42), '$(brain) Memory (42)');
  const src = fs.readFileSync(path.join(__dirname, '..', 'src', 'extension.ts'), 'utf8');
  assert.match(src, /createStatusBarItem\('memoryLsp\.status'/);
  assert.match(src, /status\.command = 'memoryLsp\.query'/);
});

test('the cleanup plan opens read-only, never as a dirty untitled editor', () => {
  const src = fs.readFileSync(path.join(__dirname, '..', 'src', 'extension.ts'), 'utf8');
  assert.match(src, /registerTextDocumentContentProvider\(PLAN_SCHEME/);
  assert.doesNotMatch(src, /openTextDocument\(\{\s*language/, 'an untitled document with content asks to be saved');
});
