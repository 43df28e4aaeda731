/**
 * "ACP: Add Agent…": pick an agent from the registry (or the offline list), see what it needs and whether
 * that is here, install a binary distribution when the user agrees, and write its `acpChat.agents` entry
 * to the user settings, optionally making it the default. The command's options argument lets tests (and
 * other extensions) answer the questions instead of the quick picks, or stand in for the picker and the
 * consent dialog themselves (`ui`), so everything between those and the settings runs as it does for a user.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { freeId, type BinaryPlan } from '../../common/agents/registry';
import type { AgentConfig } from '../../common/config/settings';
import { labelText, noticeLines, noticeText } from '../../common/untrusted';
import { errorText } from '../../common/util/errors';
import { announcedSize } from '../../node/registry/download';
import { installBinary, installDir } from '../../node/registry/installBinary';
import { catalogView, needsText, type Candidate } from './agentCatalog';
import { pickAgent, type PickerView } from './agentPicker';
import { askRemoteAgent, remoteAgentEntry, type RemoteAgentAnswers } from './addRemoteAgent';

/** What the download consent dialog says: a message and its detail lines (registry text, made safe where shown). */
export interface ConsentPrompt {
  readonly message: string;
  readonly lines: readonly string[];
}

/** The two places Add Agent asks the user; by default VS Code's quick pick and a modal dialog. */
interface AddAgentUi {
  readonly createPicker?: () => PickerView;
  /** True when the user agrees to download and install. */
  readonly confirmDownload?: (prompt: ConsentPrompt) => Promise<boolean>;
}

export interface AddAgentOptions {
  /** A registry file or URL to use instead of the `acpChat.agentRegistry` setting. */
  readonly registryFile?: string;
  /** The catalog agent to add, instead of asking. */
  readonly agentId?: string;
  /** Make it `acpChat.defaultAgent`, instead of asking. */
  readonly makeDefault?: boolean;
  /** Download a binary distribution without the consent dialog (only ever from code that names the agent). */
  readonly confirmDownload?: boolean;
  readonly ui?: AddAgentUi;
  /** Add this agent by URL, instead of asking (a test, or another extension). */
  readonly remote?: RemoteAgentAnswers;
}

export function parseAddAgentOptions(arg: unknown): AddAgentOptions {
  if (typeof arg !== 'object' || arg === null) return {};
  const o = arg as Record<string, unknown>;
  return {
    ...(typeof o.registryFile === 'string' ? { registryFile: o.registryFile } : {}),
    ...(typeof o.agentId === 'string' ? { agentId: o.agentId } : {}),
    ...(typeof o.makeDefault === 'boolean' ? { makeDefault: o.makeDefault } : {}),
    ...(typeof o.confirmDownload === 'boolean' ? { confirmDownload: o.confirmDownload } : {}),
    ...(typeof o.ui === 'object' && o.ui !== null ? { ui: parseUi(o.ui as Record<string, unknown>) } : {}),
    ...(remoteOf(o.remote) ? { remote: remoteOf(o.remote) } : {}),
  };
}

function remoteOf(r: unknown): RemoteAgentAnswers | undefined {
  if (typeof r !== 'object' || r === null) return undefined;
  const v = r as Record<string, unknown>;
  return typeof v.url === 'string' ? { url: v.url, name: typeof v.name === 'string' ? v.name : '', token: v.token === true } : undefined;
}

/** Only functions are taken: a command argument from another extension is checked like any input. */
function parseUi(u: Record<string, unknown>): AddAgentUi {
  return {
    ...(typeof u.createPicker === 'function' ? { createPicker: u.createPicker as () => PickerView } : {}),
    ...(typeof u.confirmDownload === 'function' ? { confirmDownload: u.confirmDownload as (prompt: ConsentPrompt) => Promise<boolean> } : {}),
  };
}

export interface AddAgentHost {
  /** The extension's global storage folder: the registry cache and installed binaries live there. */
  readonly globalStorage: string;
  readonly log: (line: string) => void;
}

/** Returns the id of the agent entry written, or undefined when nothing was written. */
export async function addAgent(options: AddAgentOptions, host: AddAgentHost): Promise<string | undefined> {
  const load = (force: boolean) => catalogView(host.globalStorage, force, host.log, options.registryFile);
  let chosen: Candidate | 'url' | undefined;
  if (options.agentId !== undefined) {
    if (options.remote) return addByUrl(options, host);
    const view = await load(false);
    chosen = view.candidates.find((c) => c.agent.id === options.agentId);
    if (!chosen) {
      const offline = view.origin.kind === 'offline' ? ` (the offline list: ${view.origin.reason})` : '';
      void vscode.window.showErrorMessage(`No agent '${noticeText(options.agentId)}' in the agent list${noticeText(offline)}.`);
      return undefined;
    }
  } else {
    chosen = await pickAgent(load, options.ui?.createPicker);
  }
  if (!chosen) return undefined;
  if (chosen === 'url') return addByUrl(options, host);
  const plan = chosen.plan;
  if (!plan) {
    void vscode.window.showErrorMessage(`${noticeText(chosen.agent.name)} has no distribution for this platform (${noticeText(`${process.platform}-${process.arch}`)}).`);
    return undefined;
  }

  let command = plan.entry.command;
  if (plan.kind === 'binary') {
    const installed = await installWithConsent(chosen, plan, options, host);
    if (!installed) return undefined;
    command = installed;
  }

  const entry = await addEntry((taken) => ({ ...plan.entry, command, id: freeId(plan.entry.id, [...taken, 'demo']) }), host);
  const missing = plan.kind === 'package' && !chosen.found ? ` ${needsText(chosen)}.` : '';
  return offerDefault(entry, missing, options);
}

/** Writes an entry to the user's acpChat.agents; `make` gets the ids in use. */
async function addEntry(make: (taken: readonly string[]) => AgentConfig, host: AddAgentHost): Promise<AgentConfig> {
  const config = vscode.workspace.getConfiguration('acpChat');
  const existing = (config.inspect<unknown[]>('agents')?.globalValue ?? []).filter((a) => typeof a === 'object' && a !== null);
  const taken = existing.map((a) => (a as { id?: unknown }).id).filter((id): id is string => typeof id === 'string');
  const entry = make(taken);
  await config.update('agents', [...existing, entry], vscode.ConfigurationTarget.Global);
  host.log(`added agent ${entry.id}: ${entry.url ?? [entry.command, ...entry.args].join(' ')}`);
  return entry;
}

/** An agent reached by URL (addRemoteAgent.ts): its token, if any, is asked on the first connect, not here. */
async function addByUrl(options: AddAgentOptions, host: AddAgentHost): Promise<string | undefined> {
  const answers = options.remote ?? (await askRemoteAgent());
  if (!answers) return undefined;
  let entry: AgentConfig;
  try {
    entry = await addEntry((taken) => remoteAgentEntry(answers, taken), host);
  } catch (e) {
    void vscode.window.showErrorMessage(`Could not add the agent: ${noticeText(errorText(e))}`);
    return undefined;
  }
  return offerDefault(entry, answers.token ? ' Its token is asked when a chat first connects.' : '', options);
}

async function offerDefault(entry: AgentConfig, missing: string, options: AddAgentOptions): Promise<string> {
  const config = vscode.workspace.getConfiguration('acpChat');
  const makeDefault =
    options.makeDefault ??
    (await vscode.window.showInformationMessage(`Added ${labelText(entry.name)} to acpChat.agents.${noticeText(missing)} Make it the default agent?`, 'Make Default')) ===
      'Make Default';
  if (makeDefault) await config.update('defaultAgent', entry.id, vscode.ConfigurationTarget.Global);
  return entry.id;
}

/** Asks (modal), then downloads, checks and unpacks with a cancellable progress; the command's path, or undefined. */
async function installWithConsent(chosen: Candidate, plan: BinaryPlan, options: AddAgentOptions, host: AddAgentHost): Promise<string | undefined> {
  const root = path.join(host.globalStorage, 'agents');
  if (plan.archive === 'unsupported') {
    void vscode.window.showErrorMessage(`${noticeText(chosen.agent.name)}: ${noticeText(needsText(chosen))}. Install it yourself and add it to acpChat.agents.`);
    return undefined;
  }
  const answer = options.confirmDownload ?? (await (options.ui?.confirmDownload ?? askConsent)(await consentPrompt(chosen, plan, root)));
  if (!answer) return undefined;
  try {
    const command = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Installing ${labelText(chosen.agent.name)}`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        let reported = 0;
        try {
          return await installBinary({
            agentId: chosen.agent.id,
            version: chosen.agent.version,
            target: plan.target,
            archive: plan.archive,
            root,
            // The extension host's proxy-aware fetch (see agentCatalog.ts).
            fetch,
            platform: process.platform,
            signal: abort.signal,
            onProgress: (received, total) => {
              if (!total) return progress.report({ message: `${Math.round(received / 1048576)} MB` });
              const pct = Math.floor((received / total) * 100);
              progress.report({ increment: pct - reported, message: `${pct}%` });
              reported = pct;
            },
          });
        } finally {
          sub.dispose();
        }
      },
    );
    host.log(`installed ${chosen.agent.id} ${chosen.agent.version ?? '(unversioned)'} from ${plan.target.archive}: ${command}`);
    return command;
  } catch (e) {
    host.log(`install of ${chosen.agent.id} failed: ${errorText(e)}`);
    void vscode.window.showErrorMessage(`${noticeText(chosen.agent.name)} was not installed: ${noticeText(errorText(e))}`);
    return undefined;
  }
}

const AGREE = 'Download and Install';

async function askConsent(prompt: ConsentPrompt): Promise<boolean> {
  return (await vscode.window.showWarningMessage(noticeText(prompt.message), { modal: true, detail: noticeLines(...prompt.lines) }, AGREE)) === AGREE;
}

/** The consent dialog's text: what is downloaded (its size, when the server says), from which host, and where it goes. */
async function consentPrompt(chosen: Candidate, plan: BinaryPlan, root: string): Promise<ConsentPrompt> {
  const size = await announcedSize(plan.target.archive, fetch, AbortSignal.timeout(10_000));
  const version = chosen.agent.version ? ` ${chosen.agent.version}` : '';
  return {
    message: `Download and install ${chosen.agent.name}${version}?`,
    lines: [
      `Size: ${size === undefined ? 'not announced by the server' : megabytes(size)}`,
      `From: ${hostOf(plan.target.archive)} (${plan.target.archive})`,
      `Unpacked into: ${installDir(root, chosen.agent.id, chosen.agent.version)}`,
      plan.target.sha256 ? 'The download is checked against the SHA-256 the registry gives.' : 'The registry gives no checksum for it: only its size is checked.',
      'The agent will run as a program with your permissions.',
    ],
  };
}

function megabytes(n: number): string {
  return n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${(n / 1048576).toFixed(1)} MB`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
