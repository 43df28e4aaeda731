/**
 * What the client itself adds to a chat's transcript, which is not on the wire: output and exit of the
 * terminals it runs for the agent (v1 `terminal/*`), its notices, and the turns' Changes summaries. The
 * store reduces them like wire messages (`MessageStore.record`), the journal saves them, and a capture
 * keeps them as notes (`CLIENT_EVENT_NOTE`), so a reload, a fork, `cli reduce` and a capture opened
 * read-only all show what the live panel showed. Parsed tolerantly: they come back from files.
 */
import * as z from 'zod';
import { NOTICE_ACTIONS, type Notice } from '../notices';
import { relinkSaved, savedEntryKeys } from '../changes/persist';

/** The `text` of a capture note that carries a client event (`{ text, event }`). */
export const CLIENT_EVENT_NOTE = 'client event';

const zExit = z.object({ exitCode: z.number().int().nullable().catch(null), signal: z.string().nullable().catch(null) });

export const zNotice = z.object({
  severity: z.string(),
  title: z.string(),
  description: z.string().nullable().optional(),
  count: z.number().int().positive().optional(),
  key: z.string().optional(),
  actions: z
    .array(z.object({ id: z.enum(NOTICE_ACTIONS), label: z.string() }))
    .readonly()
    .optional(),
  fill: z.string().optional(),
  entryKey: z.string().optional(),
});

export const zEarlierLink = z.object({ sessionId: z.string(), earlierSessionId: z.string(), reason: z.string() }).readonly();

export const zClientEvent = z.discriminatedUnion('event', [
  /** Output of a terminal the client runs (`append`; with `replace`, the whole output) and, once it ended, its exit. */
  z.object({
    event: z.literal('terminal'),
    sessionId: z.string(),
    terminalId: z.string(),
    append: z.string(),
    replace: z.literal(true).optional(),
    exit: zExit.optional(),
  }),
  /** A notice shown above the session's transcript (null: before any session); one with a `key` replaces the one with that key. */
  z.object({ event: z.literal('notice'), sessionId: z.string().nullable(), notice: zNotice }),
  /** The client's notice with this key is gone. */
  z.object({ event: z.literal('notice_removed'), sessionId: z.string().nullable(), key: z.string() }),
  /** Every notice of the session is gone (a restart, another session shown). */
  z.object({ event: z.literal('notices_cleared'), sessionId: z.string().nullable() }),
  /**
   * The connection that made the pending requests is gone (its agent exited, or the window that ran it
   * closed): nothing it asked can be answered any more. Its unanswered permission requests are marked
   * expired and, with `turn`, a prompt still running is marked interrupted (after an agent's exit the
   * recovery supervisor says that instead).
   */
  z.object({ event: z.literal('connection_ended'), turn: z.boolean() }),
  /** The chat's Changes summaries, in their saved form (src/common/changes/persist.ts). */
  z.object({ event: z.literal('changes'), saved: z.unknown() }),
  /** The title the user gave the session's chat (Rename Chat); null clears it, and the agent's shows again. */
  z.object({ event: z.literal('user_title'), sessionId: z.string(), title: z.string().max(10_000).nullable() }),
  /** Session `sessionId` was started because `earlierSessionId` could not be reattached: its transcript stays shown above (null: no longer). */
  z.object({ event: z.literal('earlier'), link: zEarlierLink.nullable() }),
  /** Restore in place: session `sessionId` goes on from message `key` of session `from`, whose turns from there are folded into it. */
  z.object({ event: z.literal('rewound'), sessionId: z.string(), from: z.string(), key: z.string() }),
]);

/** Session `sessionId` was started because `earlierSessionId` could not be reattached (`reason`). */
export type EarlierLink = z.infer<typeof zEarlierLink>;

export type ClientEvent = z.infer<typeof zClientEvent>;

// The notice's schema and the notice type must stay the same shape, both ways (a field missing from the
// schema would be dropped from every saved notice without a type error).
const _sameNotice: (n: z.infer<typeof zNotice>) => Notice = (n) => n;
const _sameKeys: Record<keyof Notice, true> = {
  severity: true,
  title: true,
  description: true,
  count: true,
  key: true,
  actions: true,
  fill: true,
  entryKey: true,
} satisfies Record<keyof z.infer<typeof zNotice>, true>;
void _sameNotice;
void _sameKeys;

/** The client event a capture note carries, or undefined (another note, or an unreadable event). */
export function clientEventOfNote(note: unknown): ClientEvent | undefined {
  if (typeof note !== 'object' || note === null || !('text' in note) || note.text !== CLIENT_EVENT_NOTE || !('event' in note)) return undefined;
  const r = zClientEvent.safeParse(note.event);
  return r.success ? r.data : undefined;
}

const zAgentNotice = z.looseObject({
  sessionId: z.string(),
  update: z.looseObject({ sessionUpdate: z.literal('notice'), title: z.string(), severity: z.string().catch('info'), description: z.string().nullable().optional().catch(null) }),
});

/** An agent's `notice` session update as the notice event it means (a banner above the session), or undefined. */
export function agentNotice(params: unknown): Extract<ClientEvent, { event: 'notice' }> | undefined {
  const p = zAgentNotice.safeParse(params);
  if (!p.success) return undefined;
  const u = p.data.update;
  return { event: 'notice', sessionId: p.data.sessionId, notice: { severity: u.severity, title: u.title, description: u.description ?? null } };
}

/**
 * Where the entries a client event names are, by session and index. Keys are minted by each store, so a
 * capture note carries this beside the event: a store replaying the capture finds the same entries
 * (a notice drawn under its entry, a Changes summary after its turn) by place.
 */
export type EntryPlaces = Readonly<Record<string, readonly [sessionId: string, index: number]>>;

const zPlaces = z.record(z.string(), z.tuple([z.string(), z.number().int().nonnegative()]));

/** The entry keys a client event names. */
export function keysOfEvent(e: ClientEvent): string[] {
  if (e.event === 'notice') return e.notice.entryKey === undefined ? [] : [e.notice.entryKey];
  if (e.event === 'changes') return savedEntryKeys(e.saved);
  if (e.event === 'rewound') return [e.key];
  return [];
}

/** The event with each key it names replaced by `relink`'s answer (undefined: kept). */
export function relinkEvent(e: ClientEvent, relink: (key: string) => string | undefined): ClientEvent {
  if (e.event === 'notice' && e.notice.entryKey !== undefined) return { ...e, notice: { ...e.notice, entryKey: relink(e.notice.entryKey) ?? e.notice.entryKey } };
  if (e.event === 'changes') return { ...e, saved: relinkSaved(e.saved, relink) };
  if (e.event === 'rewound') return { ...e, key: relink(e.key) ?? e.key };
  return e;
}

/** The places a capture note carries for its event's keys (none: an older capture, or a bad field). */
export function placesOfNote(note: unknown): EntryPlaces | undefined {
  if (typeof note !== 'object' || note === null || !('places' in note)) return undefined;
  const r = zPlaces.safeParse(note.places);
  return r.success ? r.data : undefined;
}
