/**
 * History's bulk delete and export in the real extension host (historyActions.ts), against the demo agent:
 * delete asks first, in a dialog that names every file it removes, does nothing when not confirmed, and
 * removes exactly those files and the chats from the list when confirmed; export writes one Markdown file
 * per chat, holding what was said, into the folder picked. And Open Session…'s search as you type
 * (historyPick.ts): a word from one chat lists that chat's match, which names the message to open at.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import { bulkAction } from '../../src/vscode/history/historyActions';
import { searchInPick, type PickItem } from '../../src/vscode/history/historyPick';
import { CHAT_DELETE_EXTS, fileId } from '../../src/node/persistence/chatFiles';
import type { ChatService } from '../../src/vscode/chats/chatService';

type Dialogs = { warning?: (message: string, options: unknown, items: string[]) => string | undefined; folder?: () => string | undefined };

/** Answers the warning dialog and the folder picker while `run` runs; records every warning shown. */
async function withDialogs<T>(answer: Dialogs, run: (shown: { message: string; detail: string }[]) => Promise<T>): Promise<T> {
  const w = vscode.window as unknown as Record<string, unknown>;
  const saved = { warning: w['showWarningMessage'], open: w['showOpenDialog'] };
  const shown: { message: string; detail: string }[] = [];
  w['showWarningMessage'] = async (message: string, options: unknown, ...items: string[]) => {
    const detail = typeof options === 'object' && options !== null && 'detail' in options ? String((options as { detail: unknown }).detail) : '';
    shown.push({ message, detail });
    return answer.warning?.(message, options, items);
  };
  w['showOpenDialog'] = async () => {
    const f = answer.folder?.();
    return f === undefined ? undefined : [vscode.Uri.file(f)];
  };
  try {
    return await run(shown);
  } finally {
    w['showWarningMessage'] = saved.warning;
    w['showOpenDialog'] = saved.open;
  }
}

/** A new chat of the demo agent with one turn of `text`; its id. Driven through its own session, not focus. */
async function chatWithPrompt(s: ChatService, text: string): Promise<string> {
  const panel = await s.newChat('demo');
  await panel.whenReady();
  const id = panel.chatId ?? assert.fail('the tab has a chat');
  const session = s.chat(id) ?? assert.fail('live');
  await session.start();
  session.prompt(text);
  await session.whenIdle();
  return id;
}

suite('History bulk actions', () => {
  test('delete names every file it removes and removes only after Delete; export writes a Markdown file per chat', async () => {
    const a = await api();
    const s = a.service;
    await s.ready();
    const stamp = `walrus${Date.now().toString(36)}`;
    const ids = [await chatWithPrompt(s, `bulk first ${stamp}`), await chatWithPrompt(s, `bulk second ${stamp}`)];
    const dir = s.chatsDir() ?? assert.fail('chats are saved');
    const filesOf = () => ids.flatMap((id) => CHAT_DELETE_EXTS.map((ext) => path.join(dir, fileId(id) + ext)).filter((f) => fs.existsSync(f)));

    // Export: one file per chat, holding its prompt. A chat's search file is written a moment after it changes.
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-export-'));
    try {
      await until(
        async () => {
          const line = await withDialogs({ folder: () => out }, () => bulkAction(s, 'export', ids));
          return line === `Exported 2 chats to ${out}.`;
        },
        'both chats exported, each from its search file',
        30_000,
      );
      const written = fs.readdirSync(out).map((f) => fs.readFileSync(path.join(out, f), 'utf8'));
      assert.equal(written.length, 2, 'one Markdown file per chat');
      for (const word of ['first', 'second'])
        assert.ok(
          written.some((t) => t.includes(`bulk ${word} ${stamp}`)),
          `the ${word} chat's prompt is in its file`,
        );
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }

    // Delete, not confirmed: the dialog names every file, and nothing goes.
    const files = filesOf();
    assert.ok(files.length >= 2, `each chat has saved files (${files.join(', ')})`);
    const cancelled = await withDialogs({ warning: () => undefined }, async (shown) => {
      const line = await bulkAction(s, 'delete', ids);
      assert.equal(shown.length, 1, 'one question');
      assert.match(shown[0]?.message ?? '', /^Delete 2 chats\? This cannot be undone\./);
      const detail = shown[0]?.detail ?? '';
      assert.ok(detail.includes(`These ${files.length} files are removed from ${dir}`), detail);
      // Twelve by name, then how many more (historyActions.ts LISTED_FILES), in the chats' order.
      for (const f of files.slice(0, 12)) assert.ok(detail.includes(path.basename(f)), `the dialog names ${path.basename(f)}`);
      if (files.length > 12) assert.ok(detail.includes(`… and ${files.length - 12} more`), detail);
      return line;
    });
    assert.equal(cancelled, undefined, 'nothing done');
    assert.deepEqual(filesOf(), files, 'every file still there');
    assert.ok(
      ids.every((id) => s.chatIndex.has(id)),
      'both chats still listed',
    );

    // Delete, confirmed: the files and the chats are gone.
    const line = await withDialogs({ warning: (_m, _o, items) => items.find((i) => i === 'Delete') }, () => bulkAction(s, 'delete', ids));
    assert.equal(line, 'Deleted 2 chats.');
    await until(
      () => filesOf().length === 0,
      () => `the chats' files removed (left: ${filesOf().join(', ')})`,
      30_000,
    );
    assert.ok(
      ids.every((id) => !s.chatIndex.has(id)),
      'neither chat is listed',
    );
  });
});

suite('Open Session… search', () => {
  test('typing a word from a chat lists that chat under its title; a text match names the message it was said in', async () => {
    const a = await api();
    const s = a.service;
    await s.ready();
    const word = `narwhal${Date.now().toString(36)}`;
    const chatId = await chatWithPrompt(s, `where is the ${word} now`);
    const key =
      s
        .chat(chatId)
        ?.entries()
        .find((e) => e.kind === 'user_message' && JSON.stringify(e).includes(word))?.key ?? assert.fail('the prompt');
    const qp = vscode.window.createQuickPick<PickItem>();
    const search = searchInPick(qp, s, () => []);
    try {
      qp.show();
      // The search file is written a moment after the chat changes: type the word again until it is found.
      await until(
        async () => {
          qp.value = '';
          qp.value = word.toUpperCase();
          return until(() => qp.items.some((i) => i.chatId === chatId && (i.key === undefined || i.key === key)), 'a match', 2_000).then(
            () => true,
            () => false,
          );
        },
        () => `the prompt's match under its chat (items: ${qp.items.map((i) => i.label).join(' | ')})`,
        30_000,
      );
      assert.ok(
        qp.items.some((i) => i.kind === vscode.QuickPickItemKind.Separator && i.label === s.titleOf(chatId)),
        "the match is under its chat's title",
      );
    } finally {
      search.dispose();
      qp.dispose();
    }
  });
});
