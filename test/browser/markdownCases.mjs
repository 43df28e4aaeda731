// Browser check that agent markdown is as safe and looks the same as when it went through DOMPurify: the
// DOM the webview builds from markdown-it's tokens (webview/markdownDom.ts) equals markdown-it's HTML
// after DOMPurify with the webview's config, for every Markdown construct and known attacks.
// Registered by run.mjs.
import assert from 'node:assert/strict';
import { loadProbe } from './browser.mjs';

const CORPUS = [
  '',
  'plain text',
  '# H1\n## H2 with `code`\n###### H6\n\nSetext\n===',
  'para one\nsoft break\n\npara two  \nhard break\\\nbackslash break',
  '*em* **strong** ***both*** ~~strike~~ `code` ``code with ` tick``',
  '- tight\n- list\n  - nested\n  - list\n- end',
  '- loose\n\n- list\n\n  second para\n\n1. one\n2. two\n\n7) seven\n8) eight',
  '1. ordered\n   - mixed\n     1. deep\n\n> quote\n> > nested quote\n>\n> - list in quote',
  '```ts\nconst a = 1 < 2 && "x";\n```\n\n~~~ python extra words\nprint("<b>")\n~~~\n\n```\nno lang\n```\n\n    indented code\n    <script>',
  '```"><img src=x onerror=alert(1)>\nbad info string\n```',
  '| a | b | c |\n|:--|:-:|--:|\n| 1 | **2** | `3` |\n| x |',
  'Text\n\n---\n\n***\n\nmore',
  '[link](https://example.com "Title") <https://auto.link/path> www.example.com and mail@example.com',
  '[file](src/app.ts#L7) [rel](./a/b.md) [mail](mailto:a@b.c) [ftp](ftp://x.y/z) [file url](file:///etc/passwd)',
  '![alt *em* `c`](https://example.com/x.png "t") ![data](data:image/png;base64,iVBORw0KGgo=) ![svg](data:image/svg+xml;base64,PHN2Zz4=)',
  '[click me](javascript:alert(1)) [x](JaVaScRiPt:alert(1)) [y](java\tscript:alert(1)) [z](vbscript:msgbox) [d](data:text/html,<script>alert(1)</script>)',
  '[e](&#106;avascript:alert(1)) [f](javascript&colon;alert(1)) [g]( javascript:alert(1)) [h](jav&#x09;ascript:alert(1))',
  '<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n<a href="javascript:alert(1)">raw</a> inline <b onclick=x>bold</b>',
  '<!-- comment --> <style>body{}</style> <iframe src="https://x"></iframe> <form><input></form>',
  '[title breakout](https://x.y "</style><img src=x onerror=alert(1)>") ![alt breakout](https://x.y/i.png "--><img>")',
  '&lt;script&gt; &amp; &copy; &#x3C;b&#x3E; &nbsp; \\<not a tag\\>',
  '[ref link][r] and ![ref img][i]\n\n[r]: https://example.com/ref "Ref"\n[i]: https://example.com/i.png',
  'Line with trailing backslash\\\n- item with [link](https://a.b) and ![img](https://c.d/e.png)\n  continued',
  '- [ ] task\n- [x] done\n\nterm <kbd>Ctrl</kbd>+C',
  'Unclosed **strong and `code\n\n```js\nunclosed fence',
  '\u0000 nul \r\n crlf \t tab ﻿ bom',
];

export function register(test) {
  test('agent markdown built from tokens is the DOM markdown-it gives through DOMPurify, attacks included', async ({ open }) => {
    const { page } = await open();
    await loadProbe(page, 'markdownProbe.mjs');
    for (const source of CORPUS) {
      const { built, purified, unsafe } = await page.evaluate((src) => window.__markdownProbe(src), source);
      assert.equal(built, purified, `for ${JSON.stringify(source)}`);
      // Attack text may show as text; never as an element, a handler or a script link.
      assert.deepEqual(unsafe, [], `for ${JSON.stringify(source)}`);
    }
  });
}
