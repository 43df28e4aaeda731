/**
 * Session config options arrive as the agent sent them (v1 `id`, v2 `configId`; select or boolean;
 * unknown types kept). Read tolerantly here: an option the UI cannot show is skipped, never fatal.
 * Hand-written guards rather than zod: zod would be most of the webview bundle's size, and this data
 * comes from our own host (already validated at the agent boundary).
 */
import { isRecord } from '../src/common/util/guards';

interface Choice {
  readonly value: string;
  readonly name: string;
}
export type ConfigControl =
  | {
      readonly type: 'select';
      readonly id: string;
      readonly name: string;
      readonly value: string;
      readonly groups: readonly { readonly name: string | null; readonly choices: readonly Choice[] }[];
    }
  | { readonly type: 'boolean'; readonly id: string; readonly name: string; readonly value: boolean };

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function choices(v: unknown): Choice[] {
  if (!Array.isArray(v)) return [];
  const out: Choice[] = [];
  for (const c of v) {
    if (!isRecord(c)) continue;
    const value = str(c['value']);
    if (value !== null) out.push({ value, name: str(c['name']) ?? value });
  }
  return out;
}

export function toControl(raw: Readonly<Record<string, unknown>>): ConfigControl | null {
  const id = str(raw['id']) ?? str(raw['configId']);
  const name = str(raw['name']);
  if (!id || name === null) return null;
  if (raw['type'] === 'boolean' && typeof raw['currentValue'] === 'boolean') return { type: 'boolean', id, name, value: raw['currentValue'] };
  if (raw['type'] !== 'select' || typeof raw['currentValue'] !== 'string' || !Array.isArray(raw['options'])) return null;
  const opts: readonly unknown[] = raw['options'];
  const grouped = opts.length > 0 && opts.every((o) => isRecord(o) && Array.isArray(o['options']));
  const groups = grouped ? opts.filter(isRecord).map((g) => ({ name: str(g['name']), choices: choices(g['options']) })) : [{ name: null, choices: choices(opts) }];
  return { type: 'select', id, name, value: raw['currentValue'], groups };
}
