// A long agent answer in Markdown, deterministic: headings, paragraphs with emphasis, inline code and
// links, bullet and numbered lists, fenced code and a table now and then, in the proportions of a
// coding agent's explanation. For the paced stream of bench/webview.bench.mjs.
export function answerMarkdown(bytes) {
  let s = 1;
  const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const words = [
    'the',
    'store',
    'reducer',
    'applies',
    'each',
    'update',
    'once',
    'and',
    'never',
    'twice',
    'chunks',
    'arrive',
    'in',
    'order',
    'so',
    'a',
    'message',
    'keeps',
    'its',
    'identity',
    'while',
    'tool',
    'calls',
    'change',
    'status',
  ];
  const word = () => {
    const w = pick(words);
    const r = rnd();
    return r < 0.05 ? `**${w}**` : r < 0.1 ? `\`${w}()\`` : r < 0.12 ? `[${w}](src/${w}.ts)` : w;
  };
  const sentence = () => {
    const n = 6 + Math.floor(rnd() * 12);
    const ws = Array.from({ length: n }, word);
    return ws.join(' ').replace(/^./, (c) => c.toUpperCase()) + '.';
  };
  const paragraph = () => Array.from({ length: 2 + Math.floor(rnd() * 4) }, sentence).join(' ');
  const blocks = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    let b;
    if (i % 12 === 0) b = `## Part ${i / 12 + 1}: ${sentence().slice(0, 40)}`;
    else if (i % 5 === 2) b = Array.from({ length: 3 + Math.floor(rnd() * 4) }, () => `- ${sentence()}`).join('\n');
    else if (i % 7 === 3) b = Array.from({ length: 3 }, (_, k) => `${k + 1}. ${sentence()}`).join('\n');
    else if (i % 9 === 4) b = '```ts\n' + Array.from({ length: 4 + Math.floor(rnd() * 8) }, (_, k) => `const v${k} = store.get('${pick(words)}') ?? ${k};`).join('\n') + '\n```';
    else if (i % 23 === 6) b = '| name | kind | status |\n|---|---|---|\n' + Array.from({ length: 4 }, () => `| ${pick(words)} | ${pick(words)} | ${pick(words)} |`).join('\n');
    else b = paragraph();
    blocks.push(b);
    size += b.length + 2;
  }
  return blocks.join('\n\n').slice(0, bytes);
}
