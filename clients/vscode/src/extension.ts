// The VS Code client of memory-lsp: starts `memory-lsp serve --stdio` for
// `.memory/*.md` files and adds three palette commands on top of the
// server's workspace/executeCommand commands. Everything else (diagnostics,
// quick fixes, fix-all, hover, symbols) is the language client's doing.

import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

import {
  buildInitializationOptions,
  CATEGORIES,
  CATEGORY_FILES,
  DOCUMENT_PATTERNS,
  HACKLM_SECTION,
  memorySettings,
  statusText,
  storeArguments,
  validateContent,
  validateSlug,
} from './settings';

const CLIENT_ID = 'memoryLsp'; // the client reads `memoryLsp.trace.server` itself
const CLIENT_NAME = 'Memory LSP';
const SECTION = 'memory';

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;
let status: vscode.StatusBarItem | undefined;
let statusTimer: ReturnType<typeof setTimeout> | undefined;

// The cleanup plans shown, by URI, served read-only under PLAN_SCHEME.
const PLAN_SCHEME = 'memory-cleanup';
const plans = new Map<string, string>();
const planChanged = new vscode.EventEmitter<vscode.Uri>();
let planCount = 0;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel(CLIENT_NAME, { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('memoryLsp.store', store),
    vscode.commands.registerCommand('memoryLsp.query', query),
    vscode.commands.registerCommand('memoryLsp.cleanup', cleanup),
    vscode.commands.registerCommand('memoryLsp.restart', restart),
    vscode.commands.registerCommand('memoryLsp.showOutput', () => output?.show(true)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('memoryLsp.path')) {
        void restart();
      }
    }),
  );
  // HackLM's status bar item, "Memory (N)": the entries of the first
  // folder's .memory/, kept current by every writer (the watcher sees the
  // CLI, agents and HackLM too); a click runs Memory: Query.
  context.subscriptions.push(
    planChanged,
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, {
      onDidChange: planChanged.event,
      provideTextDocumentContent: (uri) => plans.get(uri.toString()) ?? '',
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      if (doc.uri.scheme === PLAN_SCHEME) {
        plans.delete(doc.uri.toString());
      }
    }),
  );
  status = vscode.window.createStatusBarItem('memoryLsp.status', vscode.StatusBarAlignment.Left, 100);
  status.name = 'Memory';
  status.command = 'memoryLsp.query';
  const watcher = vscode.workspace.createFileSystemWatcher('**/.memory/*.md');
  context.subscriptions.push(
    status,
    watcher,
    watcher.onDidCreate(scheduleStatus),
    watcher.onDidChange(scheduleStatus),
    watcher.onDidDelete(scheduleStatus),
  );
  await start();
  scheduleStatus();
}

// scheduleStatus counts the entries again once writes have settled.
function scheduleStatus(): void {
  if (statusTimer !== undefined) {
    clearTimeout(statusTimer);
  }
  statusTimer = setTimeout(() => {
    statusTimer = undefined;
    void updateStatus();
  }, 300);
}

async function updateStatus(): Promise<void> {
  const c = client;
  if (!status || !c || !c.isRunning()) {
    return;
  }
  try {
    const stats = (await c.sendRequest(ExecuteCommandRequest.type, { command: 'memory.stats', arguments: [{}] })) as {
      total?: number;
      categories?: { category: string; entries: number; limit: number }[];
    };
    const total = stats?.total ?? 0;
    status.text = statusText(total);
    const lines = (stats?.categories ?? []).map((c) => `${c.category}: ${c.entries} / ${c.limit}`);
    status.tooltip = [`memory-lsp: ${total} ${total === 1 ? 'entry' : 'entries'} in .memory/`, ...lines, 'Click to query'].join('\n');
    status.show();
  } catch (err) {
    output?.warn(`Memory status: ${errorText(err)}`);
  }
}

export async function deactivate(): Promise<void> {
  await stop();
}

// serverCommand resolves memoryLsp.path: `~` is the home folder, a relative
// path with a separator is taken from the first workspace folder, and a bare
// name is looked up on PATH when the process is spawned.
function serverCommand(): string {
  let p = vscode.workspace.getConfiguration('memoryLsp').get<string>('path', 'memory-lsp').trim() || 'memory-lsp';
  if (p === '~' || p.startsWith('~/')) {
    p = path.join(os.homedir(), p.slice(1));
  }
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!path.isAbsolute(p) && /[\\/]/.test(p) && folder?.uri.scheme === 'file') {
    p = path.join(folder.uri.fsPath, p);
  }
  return p;
}

async function start(): Promise<void> {
  let command = serverCommand();
  try {
    await startWith(command);
  } catch (err) {
    // In a remote window (code-server, SSH) user settings can reach the
    // extension host just after activation, without a change event: a
    // start with the default command then fails although memoryLsp.path is
    // set. Read the setting again and, if it now says something else, try
    // that once before telling the user.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const again = serverCommand();
    if (again === command) {
      return startFailed(command, err);
    }
    output?.info(`memoryLsp.path changed to "${again}" while "${command}" failed to start (${errorText(err)}): starting again`);
    command = again;
    try {
      await startWith(command);
    } catch (err2) {
      return startFailed(command, err2);
    }
  }
}

async function startFailed(command: string, err: unknown): Promise<void> {
  const choice = await vscode.window.showErrorMessage(
    `Memory LSP could not start "${command}": ${errorText(err)}. Set memoryLsp.path to the memory-lsp binary.`,
    'Open Settings',
    'Show Output',
  );
  if (choice === 'Open Settings') {
    void vscode.commands.executeCommand('workbench.action.openSettings', 'memoryLsp.path');
  } else if (choice === 'Show Output') {
    output?.show(true);
  }
}

// startWith starts a client for command, or throws with nothing left running.
async function startWith(command: string): Promise<void> {
  // TransportKind.stdio appends --stdio: the server runs `memory-lsp serve --stdio`.
  const serverOptions: ServerOptions = {
    run: { command, args: ['serve'], transport: TransportKind.stdio },
    debug: { command, args: ['serve', '--log-level', 'debug'], transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    // Only memory files and the agents' instruction files, whatever their
    // language id; the server checks the path too.
    documentSelector: DOCUMENT_PATTERNS.map((pattern) => ({ scheme: 'file', pattern })),
    // Read at every (re)start, so a restart picks up edited settings.
    initializationOptions: () =>
      buildInitializationOptions(vscode.workspace.getConfiguration(SECTION), vscode.workspace.getConfiguration(HACKLM_SECTION)),
    // A change to memory.* or hacklm-memory.* sends workspace/didChangeConfiguration;
    // the server then pulls the section.
    synchronize: { configurationSection: [SECTION, HACKLM_SECTION] },
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    middleware: {
      workspace: {
        // Answer pulls of `memory` with the same object as initializationOptions'
        // `memory` (unset settings left out); other sections as the client would.
        configuration: async (params, token, next) => {
          const answers = await next(params, token);
          if (!Array.isArray(answers)) {
            return answers;
          }
          return params.items.map((item, i) => {
            if (item.section !== SECTION) {
              return answers[i];
            }
            const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
            return memorySettings(vscode.workspace.getConfiguration(SECTION, scope), vscode.workspace.getConfiguration(HACKLM_SECTION, scope));
          });
        },
      },
    },
  };
  const c = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  client = c;
  try {
    await c.start();
  } catch (err) {
    // Only this attempt's client: a restart may have made a newer one.
    if (client === c) {
      client = undefined;
    }
    await c.dispose().catch(() => undefined);
    throw err;
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    await c.stop().catch(() => undefined);
    await c.dispose().catch(() => undefined);
  }
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

// --- commands ---------------------------------------------------------------

// root is the workspace folder the command acts on: the active editor's, else
// the only one, else the user's pick. undefined lets the server use the first.
async function root(): Promise<string | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const active = vscode.window.activeTextEditor?.document.uri;
  const own = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  if (own) {
    return own.uri.toString();
  }
  if (folders.length <= 1) {
    return folders[0]?.uri.toString();
  }
  const picked = await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Which folder’s memory?' });
  return picked?.uri.toString();
}

// execute runs a server command and returns its result, or undefined after
// telling the user why it failed.
async function execute<T>(command: string, args: object): Promise<T | undefined> {
  if (!client || !client.isRunning()) {
    await restart();
  }
  if (!client || !client.isRunning()) {
    return undefined;
  }
  try {
    return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] })) as T;
  } catch (err) {
    void vscode.window.showErrorMessage(`Memory: ${errorText(err)}`);
    return undefined;
  }
}

interface Result {
  message?: string;
}

async function store(): Promise<void> {
  const category = await vscode.window.showQuickPick(
    CATEGORIES.map((c) => ({ label: c, description: CATEGORY_FILES[c] })),
    { title: 'Memory: Store (1/3)', placeHolder: 'Category' },
  );
  if (!category) {
    return;
  }
  const content = await vscode.window.showInputBox({
    title: 'Memory: Store (2/3)',
    prompt: `One concise sentence for ${category.description}`,
    validateInput: validateContent,
    ignoreFocusOut: true,
  });
  if (content === undefined) {
    return;
  }
  const slug = await vscode.window.showInputBox({
    title: 'Memory: Store (3/3)',
    prompt: 'Optional kebab-case slug (leave empty for none)',
    validateInput: validateSlug,
    ignoreFocusOut: true,
  });
  if (slug === undefined) {
    return;
  }
  const res = await execute<Result>('memory.storeMemory', storeArguments(category.label, content, slug, await root()));
  if (res?.message) {
    void vscode.window.showInformationMessage(res.message);
  }
}

interface QueryHit {
  category: string;
  file: string;
  path: string;
  line: number; // 1-based
  slug?: string;
  content: string;
  score: number;
  stale?: string[]; // what the repository contradicts in the entry
}

async function query(): Promise<void> {
  const text = await vscode.window.showInputBox({ title: 'Memory: Query', prompt: 'Search the memory files' });
  if (!text || text.trim() === '') {
    return;
  }
  const res = await execute<Result & { results?: QueryHit[] }>('memory.queryMemory', { query: text, limit: 20, root: await root() });
  if (!res) {
    return;
  }
  const hits = res.results ?? [];
  if (hits.length === 0) {
    void vscode.window.showInformationMessage(res.message || `No memories match "${text}".`);
    return;
  }
  const picked = await vscode.window.showQuickPick(
    hits.map((h) => ({
      label: h.content,
      description: `[${h.category}]${h.slug ? ' ' + h.slug : ''}`,
      detail: `${h.file}:${h.line}${h.stale && h.stale.length > 0 ? ` — stale: ${h.stale.join('; ')}` : ''}`,
      hit: h,
    })),
    { title: `Memory: ${hits.length} result${hits.length === 1 ? '' : 's'} for "${text}"`, matchOnDescription: true },
  );
  if (!picked) {
    return;
  }
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(picked.hit.path));
  const line = Math.max(0, Math.min(picked.hit.line - 1, doc.lineCount - 1));
  const at = new vscode.Range(line, 0, line, 0);
  await vscode.window.showTextDocument(doc, { selection: at });
}

interface CleanupEntry {
  line: number;
  slug?: string;
  content: string;
}

interface CleanupResult extends Result {
  applied: boolean;
  steps: { kind: string; file: string; line: number; detail: string }[];
  suggestions?: {
    kind: string;
    file: string;
    earlier: CleanupEntry;
    later: CleanupEntry;
    similarity: number;
    reason?: string;
    keep: string;
    applied: boolean;
  }[];
  diff: string;
  entriesBefore: number;
  entriesAfter: number;
}

async function cleanup(): Promise<void> {
  const where = await root();
  const plan = await execute<CleanupResult>('memory.cleanup', { root: where });
  if (!plan) {
    return;
  }
  const pairs = (plan.suggestions ?? []).filter((p) => !p.applied);
  if (plan.steps.length === 0 && pairs.length === 0) {
    void vscode.window.showInformationMessage(plan.message || 'Memory is already clean.');
    return;
  }
  // The plan: steps, the pairs left to decide, and the unified diff, in an
  // untitled editor.
  const steps = plan.steps.map((s) => `# ${s.kind} ${s.file}:${s.line}: ${s.detail}`);
  const entry = (e: CleanupEntry) => `#   ${e.line}: - ${e.slug ? `[${e.slug}] ` : ''}${e.content}`;
  const decide = pairs.length === 0 ? [] : [
    '#',
    `# ${pairs.length} pair${pairs.length === 1 ? '' : 's'} to decide (not applied: use the Keep this one / Keep the other / Keep both quick fixes on the diagnostics):`,
    ...pairs.flatMap((p) => [
      `# ${p.kind} ${p.file}:${p.earlier.line} and ${p.later.line}${p.reason ? ` (${p.reason})` : ''}: suggested: ${
        p.keep === 'both' ? 'keep both' : `keep line ${p.keep === 'earlier' ? p.earlier.line : p.later.line}`}`,
      entry(p.earlier),
      entry(p.later),
    ]),
  ];
  // A read-only document of our own scheme: an untitled one would be dirty
  // and ask to be saved on close (issue 28).
  const uri = vscode.Uri.from({ scheme: PLAN_SCHEME, path: `/cleanup-plan-${++planCount}.diff` });
  plans.set(uri.toString(), `${[...steps, ...decide].join('\n')}\n\n${plan.diff}`);
  planChanged.fire(uri);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(doc, 'diff');
  await vscode.window.showTextDocument(doc, { preview: true });
  if (plan.steps.length === 0) {
    return; // only pairs to decide: nothing to apply
  }
  const n = plan.steps.length;
  const choice = await vscode.window.showWarningMessage(
    `Memory cleanup: ${n} step${n === 1 ? '' : 's'}, ${plan.entriesBefore} entries before, ${plan.entriesAfter} after. Apply it?`,
    { modal: true, detail: 'The plan is shown in the editor. Applying writes the memory files.' },
    'Apply',
  );
  if (choice !== 'Apply') {
    return;
  }
  const done = await execute<CleanupResult>('memory.cleanup', { apply: true, root: where });
  if (done?.message) {
    void vscode.window.showInformationMessage(done.message.split('\n')[0]);
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
