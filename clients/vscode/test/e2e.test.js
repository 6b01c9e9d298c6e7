// End-to-end test of the memory-lsp binary through the libraries under VS
// Code's language client (vscode-languageserver-protocol on vscode-jsonrpc),
// without VS Code: spawn `$MEMORY_LSP_BIN serve --stdio`, initialize with the
// initializationOptions the extension builds (out/settings.js, compiled from
// src/settings.ts), and run the session an editor runs. Every wait is bounded.
//
//   MEMORY_LSP_BIN=/path/to/memory-lsp npm test

'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const cp = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const rpc = require('vscode-jsonrpc/node');
const lsp = require('vscode-languageserver-protocol/node');

const settings = require('../out/settings.js');

const BIN = process.env.MEMORY_LSP_BIN;
const WAIT = 5000; // ms; a passing run never waits this long for one step

// What a user might have in settings.json under memory.*: every key the
// extension contributes, some left unset (null, as VS Code reports them).
// The Decision limit comes from HackLM's own setting (hacklmSettings): a
// HackLM user's raised or lowered limit reaches the server when memory.* leaves
// it unset, and the over-limit finding below shows it took effect.
const userSettings = {
  categoryLimit: { Quirk: null },
  skipThreshold: 0.8,
  updateThreshold: 0.6,
  mergeThreshold: 0.3,
  longEntry: 200,
  maxContent: null,
  rules: { 'missing-slug': false, secret: null },
  historyDepth: 50,
  review: 'flagged',
  agents: null,
};

const hacklmSettings = { 'categoryLimit.Decision': 3, 'categoryLimit.Instruction': 30 };

const decisions =
  '# Decisions\n' +
  '\n' +
  '* Use Postgres for the ledger.\n' +
  '- [My Slug] Deploy the API before the web app.\n' +
  '- [db] Use Redis for caching.\n' +
  '- [db] Never use Redis for caching.\n' +
  '- Tag every release in git.\n';

const quirks = '# Quirks\n\n- [gradle-leak] The Gradle daemon leaks memory after about 20 builds.\n';

function uriOf(p) {
  return pathToFileURL(p).href;
}

function timeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

// applyEdits applies LSP TextEdits (UTF-16 columns, as JS strings count) to text.
function applyEdits(text, edits) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\n') starts.push(i + 1);
  }
  const offset = (p) => Math.min((starts[p.line] ?? text.length) + p.character, text.length);
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted) {
    text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  }
  return text;
}

// editsFor collects the TextEdits of a WorkspaceEdit for one document.
function editsFor(edit, uri) {
  const out = [];
  for (const dc of edit.documentChanges ?? []) {
    if (dc.textDocument && dc.textDocument.uri === uri) out.push(...dc.edits);
  }
  out.push(...((edit.changes ?? {})[uri] ?? []));
  return out;
}

// Session: the server process, its connection, and what it has sent us.
class Session {
  constructor(cwd) {
    this.proc = cp.spawn(BIN, ['serve', '--stdio'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.proc.stderr.on('data', (b) => (this.stderr += b));
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({ code, signal })));
    this.spawnError = new Promise((_, reject) => this.proc.on('error', reject));
    this.spawnError.catch(() => undefined);
    this.conn = lsp.createProtocolConnection(new rpc.StreamMessageReader(this.proc.stdout), new rpc.StreamMessageWriter(this.proc.stdin));
    this.diagnostics = []; // every publishDiagnostics, in order
    this.messages = []; // window/showMessage and window/logMessage
    this.applyEdits = [];
    this.waiters = new Set();
    this.conn.onNotification(lsp.PublishDiagnosticsNotification.type, (p) => {
      this.diagnostics.push(p);
      for (const w of this.waiters) w();
    });
    this.conn.onNotification(lsp.ShowMessageNotification.type, (p) => this.messages.push({ show: true, ...p }));
    this.conn.onNotification(lsp.LogMessageNotification.type, (p) => this.messages.push({ show: false, ...p }));
    // Answer pulls of `memory` as the extension's middleware does.
    this.conn.onRequest(lsp.ConfigurationRequest.type, (p) =>
      p.items.map((item) => (item.section === 'memory' ? settings.memorySettings(settings.fromObject(userSettings), settings.fromObject(hacklmSettings)) : null)),
    );
    this.conn.onRequest(lsp.RegistrationRequest.type, () => null);
    this.conn.onRequest(lsp.UnregistrationRequest.type, () => null);
    this.conn.onRequest(lsp.WorkDoneProgressCreateRequest.type, () => null);
    this.conn.onRequest(lsp.ApplyWorkspaceEditRequest.type, (p) => {
      this.applyEdits.push(p);
      return { applied: false, failureReason: 'this test applies no server-initiated edits' };
    });
    this.conn.listen();
  }

  request(type, params, what) {
    return timeout(Promise.race([this.conn.sendRequest(type, params), this.spawnError]), WAIT, what ?? type.method);
  }

  notify(type, params) {
    return this.conn.sendNotification(type, params);
  }

  // awaitDiagnostics resolves with the first publish for uri that matches.
  awaitDiagnostics(uri, match, what) {
    return timeout(
      new Promise((resolve) => {
        const check = () => {
          const d = this.diagnostics.find((p) => p.uri === uri && match(p));
          if (d) {
            this.waiters.delete(check);
            resolve(d);
          }
        };
        this.waiters.add(check);
        check();
      }),
      WAIT,
      what,
    );
  }

  kill() {
    this.conn.dispose();
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
  }
}

function codes(p) {
  return p.diagnostics.map((d) => d.code).sort();
}

test('memory-lsp through vscode-languageserver-protocol', { timeout: 30000, skip: BIN ? false : 'set MEMORY_LSP_BIN to the memory-lsp binary' }, async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memory-lsp-vscode-'));
  const decisionsPath = path.join(root, '.memory', 'decisions.md');
  const quirksPath = path.join(root, '.memory', 'quirks.md');
  const readmePath = path.join(root, 'README.md');
  fs.mkdirSync(path.dirname(decisionsPath), { recursive: true });
  fs.writeFileSync(decisionsPath, decisions);
  fs.writeFileSync(quirksPath, quirks);
  fs.writeFileSync(readmePath, '* not a memory file\n- [Bad Slug] nor this\n');

  const s = new Session(root);
  t.after(() => {
    s.kill();
    fs.rmSync(root, { recursive: true, force: true });
  });
  t.diagnostic(`server: ${BIN}`);

  const rootUri = uriOf(root);
  const initializationOptions = settings.buildInitializationOptions(settings.fromObject(userSettings), settings.fromObject(hacklmSettings));
  assert.deepEqual(initializationOptions, {
    memory: {
      categoryLimit: { Decision: 3, Instruction: 30 },
      skipThreshold: 0.8,
      updateThreshold: 0.6,
      mergeThreshold: 0.3,
      longEntry: 200,
      rules: { 'missing-slug': false },
      historyDepth: 50,
      review: 'flagged',
    },
  });

  const init = await s.request(lsp.InitializeRequest.type, {
    processId: process.pid,
    clientInfo: { name: 'memory-lsp vscode client test' },
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: path.basename(root) }],
    initializationOptions,
    capabilities: {
      workspace: {
        configuration: true,
        applyEdit: true,
        workspaceFolders: true,
        workspaceEdit: { documentChanges: true },
        didChangeConfiguration: { dynamicRegistration: true },
        executeCommand: { dynamicRegistration: true },
      },
      textDocument: {
        synchronization: { dynamicRegistration: true, didSave: true },
        publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true },
        codeAction: {
          dynamicRegistration: true,
          codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'refactor.rewrite', 'source', 'source.fixAll'] } },
          isPreferredSupport: true,
        },
      },
      window: { workDoneProgress: true, showMessage: {} },
    },
  });
  assert.equal(init.serverInfo?.name, 'memory-lsp');
  assert.ok(init.capabilities.executeCommandProvider?.commands.includes('memory.storeMemory'), 'memory.storeMemory advertised');
  s.notify(lsp.InitializedNotification.type, {});

  // 1. A memory file with known problems: its diagnostics, with the settings
  //    applied (Decision limit 3 → over-limit; missing-slug turned off).
  const decisionsUri = uriOf(decisionsPath);
  s.notify(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri: decisionsUri, languageId: 'markdown', version: 1, text: decisions } });
  const d1 = await s.awaitDiagnostics(decisionsUri, (p) => p.version === 1, 'diagnostics of decisions.md v1');
  assert.deepEqual(codes(d1), ['bullet-marker', 'conflict', 'duplicate-slug', 'over-limit', 'slug-format']);
  for (const d of d1.diagnostics) assert.equal(d.source, 'memory-lsp');
  const slugFormat = d1.diagnostics.find((d) => d.code === 'slug-format');
  assert.deepEqual(slugFormat.range, { start: { line: 3, character: 3 }, end: { line: 3, character: 10 } });

  // 2. The quick fix for the slug, applied to our copy of the text.
  const actions = await s.request(lsp.CodeActionRequest.type, {
    textDocument: { uri: decisionsUri },
    range: slugFormat.range,
    context: { diagnostics: [slugFormat], only: ['quickfix'] },
  });
  const fix = actions.find((a) => a.kind === 'quickfix' && a.title === 'Rename slug to my-slug');
  assert.ok(fix, `quickfix "Rename slug to my-slug" among ${JSON.stringify(actions.map((a) => a.title))}`);
  const edits = editsFor(fix.edit, decisionsUri);
  assert.ok(edits.length > 0, `the quickfix edits decisions.md: ${JSON.stringify(fix.edit)}`);
  const fixed = applyEdits(decisions, edits);
  assert.equal(fixed, decisions.replace('- [My Slug] Deploy', '- [my-slug] Deploy'));
  s.notify(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri: decisionsUri, version: 2 }, contentChanges: [{ text: fixed }] });
  const d2 = await s.awaitDiagnostics(decisionsUri, (p) => p.version === 2, 'diagnostics of decisions.md v2');
  assert.deepEqual(codes(d2), ['bullet-marker', 'conflict', 'duplicate-slug', 'over-limit']);

  // 3. storeMemory into a closed file: written on disk, no applyEdit.
  const stored = await s.request(lsp.ExecuteCommandRequest.type, {
    command: 'memory.storeMemory',
    arguments: [settings.storeArguments('Quirk', ' The CI cache is keyed on the lock file only. ', '', rootUri)],
  });
  assert.equal(stored.action, 'stored', JSON.stringify(stored));
  assert.match(stored.message, /^Stored in quirks\.md/);
  assert.equal(fs.readFileSync(quirksPath, 'utf8'), quirks + '- The CI cache is keyed on the lock file only.\n');
  assert.equal(s.applyEdits.length, 0, 'no workspace/applyEdit for a closed file');

  // 4. Markdown outside .memory/: no code actions, no diagnostics. Opening a
  //    memory file afterwards is a barrier: notifications are handled in
  //    order, so a publish for README.md would have arrived before its.
  const readmeUri = uriOf(readmePath);
  s.notify(lsp.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: readmeUri, languageId: 'markdown', version: 1, text: fs.readFileSync(readmePath, 'utf8') },
  });
  const readmeActions = await s.request(lsp.CodeActionRequest.type, {
    textDocument: { uri: readmeUri },
    range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } },
    context: { diagnostics: [] },
  });
  assert.deepEqual(readmeActions, []);
  const quirksUri = uriOf(quirksPath);
  s.notify(lsp.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: quirksUri, languageId: 'markdown', version: 1, text: fs.readFileSync(quirksPath, 'utf8') },
  });
  await s.awaitDiagnostics(quirksUri, (p) => p.version === 1, 'diagnostics of quirks.md v1');
  assert.deepEqual(
    s.diagnostics.filter((p) => p.uri === readmeUri),
    [],
    'no diagnostics for README.md',
  );

  // The settings were accepted: no warning or error from the server.
  const complaints = s.messages.filter((m) => m.type === lsp.MessageType.Error || m.type === lsp.MessageType.Warning);
  assert.deepEqual(complaints, [], 'the server complained');

  // 5. shutdown, exit: exit code 0.
  await s.request(lsp.ShutdownRequest.type, undefined);
  s.notify(lsp.ExitNotification.type);
  const { code, signal } = await timeout(s.exited, WAIT, 'the server to exit');
  assert.equal(signal, null);
  assert.equal(code, 0, `exit code; stderr:\n${s.stderr}`);
});
