/**
 * "ACP: Add Agent…": pick an agent from the catalog (ours, or a registry file the user names), see what
 * it needs and whether that is on PATH, and write its `acpChat.agents` entry to the user settings,
 * optionally making it the default. The command's options argument lets tests (and other extensions)
 * answer the questions instead of the quick picks.
 */
import * as vscode from 'vscode';
import bundled from '../common/agents/catalog.json';
import { freeId, launchPlan, parseCatalog, platformKey, type Catalog, type LaunchPlan, type RegistryAgent } from '../common/agents/registry';
import type { AgentConfig } from '../common/config/settings';
import { labelText, noticeText } from '../common/untrusted';
import { errorText } from '../common/util/errors';
import { findOnPath } from '../node/findOnPath';

export interface AddAgentOptions {
  /** A registry file to use instead of the bundled catalog. */
  readonly registryFile?: string;
  /** The catalog agent to add, instead of asking. */
  readonly agentId?: string;
  /** Make it `acpChat.defaultAgent`, instead of asking. */
  readonly makeDefault?: boolean;
}

export function parseAddAgentOptions(arg: unknown): AddAgentOptions {
  if (typeof arg !== 'object' || arg === null) return {};
  const o = arg as Record<string, unknown>;
  return {
    ...(typeof o.registryFile === 'string' ? { registryFile: o.registryFile } : {}),
    ...(typeof o.agentId === 'string' ? { agentId: o.agentId } : {}),
    ...(typeof o.makeDefault === 'boolean' ? { makeDefault: o.makeDefault } : {}),
  };
}

async function loadCatalog(file: string | undefined): Promise<Catalog> {
  if (!file) return parseCatalog(bundled);
  const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(file));
  return parseCatalog(JSON.parse(new TextDecoder().decode(bytes)));
}

interface Candidate {
  readonly agent: RegistryAgent;
  readonly plan: LaunchPlan | null;
  readonly found: string | null;
}

/** Returns the id of the agent entry written, or undefined when nothing was written. */
export async function addAgent(options: AddAgentOptions, log: (line: string) => void): Promise<string | undefined> {
  let catalog: Catalog;
  try {
    catalog = await loadCatalog(options.registryFile);
  } catch (e) {
    void vscode.window.showErrorMessage(`Could not read the agent registry: ${noticeText(errorText(e))}`);
    return undefined;
  }
  for (const p of catalog.problems) log(`agent catalog: ${p}`);
  const platform = platformKey(process.platform, process.arch);
  const candidates: Candidate[] = await Promise.all(
    catalog.agents.map(async (agent) => {
      const plan = launchPlan(agent, platform);
      return { agent, plan, found: plan ? await findOnPath(plan.program) : null };
    }),
  );

  let chosen: Candidate | undefined;
  if (options.agentId !== undefined) {
    chosen = candidates.find((c) => c.agent.id === options.agentId);
    if (!chosen) {
      void vscode.window.showErrorMessage(`No agent '${noticeText(options.agentId)}' in the catalog.`);
      return undefined;
    }
  } else {
    const pick = await vscode.window.showQuickPick(
      candidates.map((c) => ({
        label: labelText(c.agent.name),
        description: labelText(!c.plan ? 'not available for this platform' : c.found ? `${c.plan.program} found` : `needs ${c.plan.requires}`),
        // The launch command first: a long description would push it past the list's width.
        detail: labelText(c.plan ? `${[c.plan.entry.command, ...c.plan.entry.args].join(' ')} — ${c.agent.description}` : c.agent.description, 300),
        candidate: c,
      })),
      { title: 'ACP: Add Agent', placeHolder: 'Choose an agent to add to acpChat.agents', matchOnDescription: true, matchOnDetail: true },
    );
    chosen = pick?.candidate;
  }
  if (!chosen) return undefined;
  if (!chosen.plan) {
    void vscode.window.showErrorMessage(`${noticeText(chosen.agent.name)} has no distribution for this platform (${noticeText(platform ?? 'unknown')}).`);
    return undefined;
  }

  const config = vscode.workspace.getConfiguration('acpChat');
  const existing = (config.inspect<unknown[]>('agents')?.globalValue ?? []).filter((a) => typeof a === 'object' && a !== null);
  const taken = existing.map((a) => (a as { id?: unknown }).id).filter((id): id is string => typeof id === 'string');
  const entry: AgentConfig = { ...chosen.plan.entry, id: freeId(chosen.plan.entry.id, [...taken, 'demo']) };
  await config.update('agents', [...existing, entry], vscode.ConfigurationTarget.Global);
  log(`added agent ${entry.id}: ${[entry.command, ...entry.args].join(' ')}`);

  const missing = chosen.found ? '' : ` ${chosen.plan.program} is not on PATH: install ${chosen.plan.requires}.`;
  const makeDefault =
    options.makeDefault ??
    (await vscode.window.showInformationMessage(
      `Added ${labelText(entry.name)} to acpChat.agents.${noticeText(missing)} Make it the default agent?`,
      'Make Default',
    )) === 'Make Default';
  if (makeDefault) await config.update('defaultAgent', entry.id, vscode.ConfigurationTarget.Global);
  return entry.id;
}
