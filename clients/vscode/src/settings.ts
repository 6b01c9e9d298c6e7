// Settings → what the server receives. This module must not import `vscode`:
// the Node test (test/e2e.test.js) loads the compiled out/settings.js to send
// the very initializationOptions the extension sends.

/** The server's settings keys, the `memory.*` settings of the extension. */
export const SETTINGS_KEYS = [
  'categoryLimit',
  'skipThreshold',
  'updateThreshold',
  'mergeThreshold',
  'longEntry',
  'maxContent',
  'rules',
  'historyDepth',
  'review',
  'agents',
] as const;

export type SettingsKey = (typeof SETTINGS_KEYS)[number];

/** The categories, in the order the Store command offers them. */
export const CATEGORIES = ['Instruction', 'Quirk', 'Preference', 'Decision', 'Security'] as const;

/**
 * Each category's file under `.memory/`, as the server names them
 * (core/category): not always the plural of the category (Security →
 * security.md), so never derive it.
 */
export const CATEGORY_FILES: Readonly<Record<(typeof CATEGORIES)[number], string>> = {
  Instruction: 'instructions.md',
  Quirk: 'quirks.md',
  Preference: 'preferences.md',
  Decision: 'decisions.md',
  Security: 'security.md',
};

/** The `memory` section as the server reads it (README "Settings"). */
export interface MemorySettings {
  categoryLimit?: Record<string, number>;
  skipThreshold?: number;
  updateThreshold?: number;
  mergeThreshold?: number;
  longEntry?: number;
  maxContent?: number;
  rules?: Record<string, boolean>;
  historyDepth?: number;
  review?: string;
  agents?: string[];
}

/** The part of vscode.WorkspaceConfiguration used here. */
export interface SettingsSource {
  get(key: string): unknown;
}

/** Turns a plain object (`{"skipThreshold": 0.7}`) into a SettingsSource. */
export function fromObject(obj: Record<string, unknown>): SettingsSource {
  return { get: (key) => obj[key] };
}

// Drops null/undefined members of an object setting and returns undefined
// when nothing is left, so the server keeps its default.
function compactObject(v: unknown): Record<string, unknown> | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    return undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (x !== null && x !== undefined) {
      out[k] = x;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * memorySettings reads the `memory` section (VS Code's
 * workspace.getConfiguration('memory')) into the object the server takes.
 * Unset settings (null, the contributed default, or an empty object) are
 * left out so the server's own defaults apply; values are passed as they
 * are, and the server names any bad one.
 */
export function memorySettings(section: SettingsSource, hacklm?: SettingsSource): MemorySettings {
  const out: Record<string, unknown> = {};
  for (const key of SETTINGS_KEYS) {
    const v = section.get(key);
    if (key === 'categoryLimit' || key === 'rules') {
      const o = compactObject(v);
      if (o !== undefined) {
        out[key] = o;
      }
    } else if (v !== null && v !== undefined) {
      out[key] = v;
    }
  }
  // A HackLM user who raised a limit under hacklm-memory.categoryLimit.<Category>
  // keeps it: ours, where set, wins; HackLM's fills the categories ours leaves
  // unset (HackLM has no other setting memory-lsp reads).
  if (hacklm !== undefined) {
    const limits: Record<string, unknown> = { ...((out.categoryLimit as Record<string, unknown>) ?? {}) };
    for (const cat of CATEGORIES) {
      const v = hacklm.get(`categoryLimit.${cat}`);
      if (limits[cat] === undefined && typeof v === 'number') {
        limits[cat] = v;
      }
    }
    if (Object.keys(limits).length > 0) {
      out.categoryLimit = limits;
    }
  }
  return out as MemorySettings;
}

/** HackLM's settings section, read for what maps onto memory-lsp's. */
export const HACKLM_SECTION = 'hacklm-memory';

// The agents' instruction files the server judges when attached to them
// (the reference rules on their bullets, their load budgets), by their
// path from a workspace root; `*` stands for any name. Listed once, as the
// activation events of package.json (workspaceContains: each of them),
// which clients/agentfiles_test.go keeps equal to the server's list
// (core/budget).
export const AGENT_FILES: readonly string[] = (
  (require('../package.json') as { activationEvents: string[] }).activationEvents
)
  .map((e) => e.replace(/^workspaceContains:/, ''))
  .filter((g) => g !== '**/.memory/*.md');

// The documents the client attaches the server to: memory files, and each
// agent's instruction file at any depth (the server finds its workspace).
export const DOCUMENT_PATTERNS = ['**/.memory/*.md', ...AGENT_FILES.map((g) => `**/${g}`)];

/**
 * initializationOptions: the settings nested under "memory", the section
 * name the server also pulls with workspace/configuration.
 */
export function buildInitializationOptions(section: SettingsSource, hacklm?: SettingsSource): { memory: MemorySettings } {
  return { memory: memorySettings(section, hacklm) };
}

/** The status bar item's text for a count of entries, as HackLM words it. */
export function statusText(entries: number): string {
  return `$(brain) Memory (${entries})`;
}

/** Arguments of memory.storeMemory; an empty slug is left out. */
export function storeArguments(category: string, content: string, slug?: string, root?: string): Record<string, string> {
  const args: Record<string, string> = { category, content: content.trim() };
  const s = (slug ?? '').trim();
  if (s !== '') {
    args.slug = s;
  }
  if (root) {
    args.root = root;
  }
  return args;
}

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The Store command's check of a slug as typed; undefined when acceptable. */
export function validateSlug(slug: string): string | undefined {
  const s = slug.trim();
  if (s === '' || KEBAB.test(s)) {
    return undefined;
  }
  return 'A slug is kebab-case: lower-case letters and digits separated by single hyphens (e.g. db-choice).';
}

/** The Store command's check of the content as typed; undefined when acceptable. */
export function validateContent(content: string): string | undefined {
  if (content.trim() === '') {
    return 'Type the memory: one concise sentence.';
  }
  if (/[\r\n]/.test(content)) {
    return 'One line only.';
  }
  return undefined;
}
