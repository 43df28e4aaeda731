/**
 * The subagent half of the session rules (unstable schema: `SubagentUpdate`, `SessionMessage`): which
 * session announced which child, which children were sent a message, and which sessions the client
 * closed. A child is a session the client knows once a known session announces it (its traffic is then
 * neither early nor unknown); closing a session ends its children too, since the parent owns them.
 * `SessionRules` owns the per-session tracks and asks here; this class owns only the links between sessions.
 */
import type { RuleId, Severity } from './rules';
import { quote } from './util';
import type { Json } from './util';

/**
 * How far up a walk from a session goes. Real nesting is a few levels; a hostile chain of announcements
 * must not make every update cost its length (a child announced deeper than this is not learned).
 */
const MAX_DEPTH = 64;

type Report = (rule: RuleId, line: number, message: string, severity?: Severity, sessionId?: string) => void;

/** What the session tracks answer for the subagent rules. */
export interface SessionTracks {
  isKnown(sid: string): boolean;
  learn(sid: string, line: number): void;
  /** Notes a line about `sid`; buffered while the client does not know it. */
  touch(sid: string, line: number, what: string): void;
}

interface Route {
  sender?: string;
  recipient?: string;
  /** Whether the reply rule has looked at this message (once per message, however often it is patched). */
  judged: boolean;
}

export class SubagentTraffic {
  /** child -> the session whose subagent_update first named it, and that line (ownership never changes). */
  private readonly parents = new Map<string, { parent: string; line: number }>();
  /** The same links the other way (a session's children are learned with it: a lookup, not a scan). */
  private readonly children = new Map<string, string[]>();
  /** Sessions some session_message named as its recipient. */
  private readonly prompted = new Set<string>();
  /** Each session message's participants so far, by session and message id (upserts patch them). */
  private readonly routes = new Map<string, Route>();
  /** Sessions whose session/close the agent answered, with that line; a load or resume reopens one. */
  private readonly closed = new Map<string, number>();

  constructor(
    private readonly report: Report,
    private readonly tracks: SessionTracks,
  ) {}

  /** `subagent_update` on `sid`: the first one for an unknown child announces it. */
  announce(sid: string, u: Json, line: number): void {
    const child = u['sessionId'];
    if (typeof child !== 'string' || child === '' || this.parents.has(child)) return;
    const above = this.ancestors(sid);
    if (above === null || above.has(child)) return;
    // A session the client opened itself is not a child (the store refuses that announcement too).
    if (this.tracks.isKnown(child)) return;
    this.parents.set(child, { parent: sid, line });
    const siblings = this.children.get(sid);
    if (siblings) siblings.push(child);
    else this.children.set(sid, [child]);
    if (this.tracks.isKnown(sid)) this.tracks.learn(child, line);
  }

  /** The line of the subagent_update that announced `sid`, if one did. */
  announcedAt(sid: string): number | undefined {
    return this.parents.get(sid)?.line;
  }

  /** The children `sid` announced (the client learns them when it learns `sid`). */
  childrenOf(sid: string): readonly string[] {
    return this.children.get(sid) ?? [];
  }

  /** A `session_message` upsert on `sid`: the sessions it names, and a reply from a child nobody messaged. */
  message(sid: string, u: Json, line: number): void {
    const id = u['messageId'];
    if (typeof id !== 'string') return; // the schema check reports it
    const key = JSON.stringify([sid, id]);
    const r = this.routes.get(key) ?? { judged: false };
    this.routes.set(key, r);
    patch(r, 'sender', u['senderSessionId']);
    patch(r, 'recipient', u['recipientSessionId']);
    for (const [named, role] of [
      [r.sender, 'sender'],
      [r.recipient, 'recipient'],
    ] as const) {
      if (named !== undefined && named !== sid && !this.tracks.isKnown(named)) this.tracks.touch(named, line, `session_message naming it as ${role}`);
    }
    if (r.recipient !== undefined && r.recipient !== r.sender) this.prompted.add(r.recipient);
    if (r.judged || r.sender === undefined || !this.parents.has(r.sender)) return;
    r.judged = true;
    if (!this.prompted.has(r.sender)) {
      this.report(
        'subagent-reply-unprompted',
        line,
        `session_message ${quote(id, 40)} from subagent ${quote(r.sender, 40)}, which no earlier session_message addressed: send the prompt to the child (a session_message with it as recipientSessionId) before its reply, so the client can show what it answers`,
        'warning',
        sid,
      );
    }
  }

  closedAnswered(sid: string, line: number): void {
    this.closed.set(sid, line);
  }

  reopened(sid: string): void {
    this.closed.delete(sid);
  }

  /** Reports `what` on `sid` when `sid` or one of its parents was closed earlier. */
  afterClose(sid: string, line: number, what: string): void {
    if (this.closed.size === 0) return;
    for (const s of [sid, ...(this.ancestors(sid) ?? [])]) {
      const at = this.closed.get(s);
      if (at === undefined) continue;
      const whose = s === sid ? `session ${quote(sid, 40)}` : `subagent ${quote(sid, 40)} of session ${quote(s, 40)}`;
      this.report(
        'update-after-close',
        line,
        `${what} for ${whose} after its session/close was answered (line ${at}): finish the session's work (and its subagents') before answering session/close; clients drop what comes later`,
        'warning',
        sid,
      );
      return;
    }
  }

  /** The sessions above `sid`, or null when there are more than MAX_DEPTH (a cycle ends the walk too). */
  private ancestors(sid: string): Set<string> | null {
    const seen = new Set<string>();
    for (let p = this.parents.get(sid)?.parent; p !== undefined && !seen.has(p) && p !== sid; p = this.parents.get(p)?.parent) {
      if (seen.size === MAX_DEPTH) return null;
      seen.add(p);
    }
    return seen;
  }
}

/** A route field is a patch: a string sets it, null clears it, anything else (or omitted) leaves it. */
function patch(r: Route, field: 'sender' | 'recipient', v: unknown): void {
  if (typeof v === 'string') r[field] = v;
  else if (v === null) delete r[field];
}
