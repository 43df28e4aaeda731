import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  escapeIcons,
  labelText,
  markdownCode,
  markdownText,
  noLinks,
  noticeDetail,
  noticeLines,
  noticeText,
  plainLine,
  terminalSafe,
  terminalSafeJson,
} from '../../src/common/untrusted';

/** VS Code's notification link parser (src/vs/base/common/linkedText.ts), to prove the helper defeats it. */
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const hasLink = (s: string) => [...s.matchAll(VSCODE_LINK)].length > 0;

describe('untrusted text for VS Code surfaces', () => {
  const hostile = [
    '[Click to continue](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%5Cn%22%7D)',
    'Run tests [ok](command:_workbench.downloadResource?x) and [docs](https://evil.example/) [f](file:///etc/passwd)',
    '[[x](command:a)]',
    '[a]\n(command:b)',
  ];

  it('leaves no link VS Code would render in a notification', () => {
    for (const s of hostile) {
      assert.ok(hasLink(s.replace('\n', '')) || s.includes('\n'), `fixture must be a link: ${s}`);
      assert.equal(hasLink(noticeText(s)), false, noticeText(s));
      assert.equal(hasLink(noticeDetail(s)), false, noticeDetail(s));
      assert.equal(hasLink(labelText(s)), false, labelText(s));
    }
    // The text stays readable: only a space is added.
    assert.equal(noLinks('[Click](command:x)'), '[Click] (command:x)');
    assert.equal(noticeText('plain title: edit src/a.ts'), 'plain title: edit src/a.ts');
  });

  it('flattens lines and drops control and bidi characters', () => {
    assert.equal(plainLine('a\nb\r\nc\td'), 'a b c d');
    assert.equal(plainLine('ok\u001b[2K\u001b]52;c;aGk=\u0007done'), 'ok[2K]52;c;aGk=done');
    assert.equal(plainLine('abc\u202Eevil\u2066x\u0085'), 'abcevilx');
    assert.equal(noticeDetail('/tmp/a\nb\u202E'), '/tmp/a\\nb');
  });

  it('caps the length without splitting a surrogate pair', () => {
    const s = 'x'.repeat(10) + '🎉'.repeat(10);
    for (let max = 2; max < 30; max++) {
      const out = plainLine(s, max);
      assert.ok(out.length <= max, `${max}: ${out.length}`);
      assert.ok(!/[\ud800-\udbff]…$/.test(out), `${max}: cut a pair`);
    }
    assert.equal(plainLine('short', 300), 'short');
  });

  it('escapes $(icon) syntax like VS Code does, once', () => {
    assert.equal(escapeIcons('$(alert) hi $(loading~spin)'), '\\$(alert) hi \\$(loading~spin)');
    assert.equal(escapeIcons('\\$(alert)'), '\\$(alert)');
    assert.equal(labelText('$(x) [a](command:b)'), '\\$(x) [a] (command:b)');
  });
});

describe('untrusted text in a Markdown hover', () => {
  it('escapes Markdown in a name and fences code with a fence longer than any backtick run inside', () => {
    assert.equal(markdownText('[x](https://e.example) **b** ![i](u)'), '\\[x\\]\\(https\\://e\\.example\\) \\*\\*b\\*\\* \\!\\[i\\]\\(u\\)');
    const code = 'a\n```\n[x](https://e.example)\n````';
    const fenced = markdownCode(code, 'ts"><b');
    const fence = fenced.split('\n')[0]!.replace(/[^`]/g, '');
    assert.equal(fence, '`````', 'one backtick longer than the longest run inside');
    assert.ok(fenced.startsWith('`````tsb\n') && fenced.endsWith('\n`````'), fenced);
    assert.equal(fenced.slice(fence.length + 4, -fence.length - 1), code, 'the code itself is unchanged');
  });
});

describe('untrusted text for a terminal (the CLI)', () => {
  it('shows every control as a visible picture or escape, keeping newlines and tabs', () => {
    const hostile = 'ok\r\n\u001b[1A\u001b[2K[permission] fake -> Allow\u001b]52;c;cm0gLXJmIH4=\u0007\b\u009b2J\u202Eevil\ttab\rover';
    const safe = terminalSafe(hostile);
    assert.equal(safe, 'ok\n␛[1A␛[2K[permission] fake -> Allow␛]52;c;cm0gLXJmIH4=␇␈\\u009b2J\\u202eevil\ttab␍over');
    assert.doesNotMatch(safe, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    // A sequence split over two writes is as inert as a whole one.
    assert.equal(terminalSafe('\u001b') + terminalSafe(']52;c;x\u0007'), terminalSafe('\u001b]52;c;x\u0007'));
  });

  it('escapes C1 and bidi characters in JSON without changing its value', () => {
    const value = { text: 'a\u009b2J\u202Eb\u001b' };
    const json = terminalSafeJson(JSON.stringify(value));
    assert.doesNotMatch(json, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    assert.deepEqual(JSON.parse(json), value);
  });

  it('dialog detail lines keep their own breaks and neutralise each line', () => {
    assert.equal(noticeLines('/a\nb', '', '[x](command:y)'), '/a\\nb\n\n[x] (command:y)');
  });
});

/**
 * Every place the extension hands text to a VS Code surface that renders links or icons. A new call
 * that interpolates something without one of the helpers fails here, so the next sink is not missed.
 */
describe('every VS Code text sink neutralises what it interpolates', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const files = readdirSync(path.join(root, 'src/vscode'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: `src/vscode/${f}`, text: readFileSync(path.join(root, 'src/vscode', f), 'utf8') }));
  const HELPERS = /^(noticeText|labelText|noticeDetail|noticeLines)\(/;
  /** Interpolations built only from the extension's own constants (an icon, a turn state, a count). */
  const OWN = /^(icon|s\.turnState|more)\}|^describeAccess\(access\)\}/;

  /** The text of a call's arguments: from after `(` to the matching `)`, skipping strings roughly. */
  function callArgs(text: string, open: number): string {
    let depth = 0;
    for (let i = open; i < text.length; i++) {
      const c = text[i];
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return text.slice(open + 1, i);
    }
    return text.slice(open + 1);
  }

  /** Interpolations not inside a helper's call: the text after each such `${`. */
  const unwrapped = (args: string) => {
    const wrapped: [number, number][] = [];
    for (const h of args.matchAll(/\b(noticeText|labelText|noticeDetail|noticeLines)\(/g)) {
      const open = h.index + h[0].length - 1;
      wrapped.push([open, open + callArgs(args, open).length + 1]);
    }
    return [...args.matchAll(/\$\{/g)]
      .filter((m) => !wrapped.some(([from, to]) => m.index > from && m.index < to))
      .map((m) => args.slice(m.index + 2))
      .filter((rest) => !HELPERS.test(rest) && !OWN.test(rest));
  };

  it('notifications and status-bar messages', () => {
    const bad: string[] = [];
    let seen = 0;
    for (const { file, text } of files) {
      // `this.confirm(message, detail, ...buttons)` is FileAccess's consent dialog (a modal warning).
      for (const m of text.matchAll(/window\.(showInformationMessage|showWarningMessage|showErrorMessage|setStatusBarMessage)\(|this\.(confirm)\(/g)) {
        seen++;
        const args = callArgs(text, m.index + m[0].length - 1);
        // The one generic forwarder behind `confirm`: its callers are checked instead.
        if (args === 'message, { modal: true, detail }, ...buttons') continue;
        if (m[2] === 'confirm' && !/\b(noticeLines|noticeDetail)\(/.test(args)) bad.push(`${file}: confirm without a neutralised detail`);
        const first = args.trimStart();
        if (!/^['"`]/.test(first) && !HELPERS.test(first)) bad.push(`${file}: ${m[1] ?? m[2]} with a computed message: ${first.slice(0, 60)}`);
        for (const rest of unwrapped(args)) bad.push(`${file}: ${m[1] ?? m[2]} interpolates \${${rest.slice(0, 40)}`);
        // The modal consent dialogs pass the path as `detail`.
        // A constant detail (a plain quoted literal) holds no agent text.
        for (const d of args.matchAll(/detail:\s*([^,}\n]+)/g))
          if (!HELPERS.test(d[1]!.trim()) && !/^'[^'$]*'$/.test(d[1]!.trim())) bad.push(`${file}: ${m[1] ?? m[2]} detail ${d[1]}`);
      }
    }
    assert.ok(seen >= 10, `the scan found only ${seen} sinks; is it still looking at the right code?`);
    assert.deepEqual(bad, []);
  });

  it('quick picks and the status bar item', () => {
    const bad: string[] = [];
    for (const { file, text } of files) {
      for (const m of text.matchAll(/window\.showQuickPick\(/g)) {
        const args = callArgs(text, m.index + m[0].length - 1);
        for (const p of args.matchAll(/\b(label|description|detail|title):\s*([^\n]+)/g)) {
          const value = p[2]!.trim();
          if (/^'[^']*'\s*(,|\}|$)/.test(value) || value.includes('labelText(')) continue;
          bad.push(`${file}: quick pick ${p[1]}: ${value}`);
        }
        for (const rest of unwrapped(args)) bad.push(`${file}: quick pick interpolates \${${rest.slice(0, 40)}`);
      }
      for (const m of text.matchAll(/sessionStatus\.(text|tooltip) = ([^\n]+)/g)) for (const rest of unwrapped(m[2]!)) bad.push(`${file}: status ${m[1]} \${${rest.slice(0, 40)}`);
    }
    assert.deepEqual(bad, []);
  });

  it('no trusted markdown or HTML anywhere in the VS Code layer', () => {
    for (const { file, text } of files) {
      assert.doesNotMatch(text, /isTrusted\s*[:=]\s*(true|\{)/, file);
      assert.doesNotMatch(text, /supportHtml\s*[:=]\s*true/, file);
      // Tooltips and labels stay plain strings; a MarkdownString needs a deliberate review (and this test updated).
      assert.doesNotMatch(text, /MarkdownString/, file);
    }
  });
});
