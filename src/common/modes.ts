/**
 * The session mode offered as a config option. ACP says clients should prefer a config option of
 * category "mode" over the legacy `modes`; since categories are optional ("MUST NOT be required for
 * correctness"), a select whose values are exactly the legacy mode ids is the same choice too.
 */
import type { ConfigOption, SessionMode } from './store/model';

const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The values a select option offers (flat or grouped). */
function selectValues(o: ConfigOption): string[] {
  const opts = o['options'];
  if (!Array.isArray(opts)) return [];
  return opts.flatMap((c: unknown): string[] => {
    if (!isRecord(c)) return [];
    if (Array.isArray(c['options'])) return c['options'].flatMap((g: unknown) => (isRecord(g) && typeof g['value'] === 'string' ? [g['value']] : []));
    return typeof c['value'] === 'string' ? [c['value']] : [];
  });
}

export function modeConfigOption(options: readonly ConfigOption[], modes: readonly SessionMode[]): ConfigOption | undefined {
  const byCategory = options.find((o) => o['category'] === 'mode' && o.type === 'select');
  if (byCategory || modes.length === 0) return byCategory;
  const ids = new Set(modes.map((m) => m.id));
  return options.find((o) => {
    if (o.type !== 'select') return false;
    const values = selectValues(o);
    return values.length === ids.size && values.every((v) => ids.has(v));
  });
}

/** The mode the config option says is current, if there is such an option with a string value. */
export function modeFromConfig(options: readonly ConfigOption[], modes: readonly SessionMode[]): string | undefined {
  const v = modeConfigOption(options, modes)?.['currentValue'];
  return typeof v === 'string' ? v : undefined;
}
