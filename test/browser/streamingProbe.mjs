// Bundled by streamingCases.mjs into the test page: a message streamed into the webview's StreamingMarkdown
// in given chunks, next to the same text rendered at once, and whether any finished block was re-rendered.
import { GROUP_SIZE, StreamingMarkdown } from '../../webview/streamingMarkdown';
import { renderMarkdown } from '../../webview/markdown';

const html = (nodes) => nodes.map((n) => (n.nodeType === Node.ELEMENT_NODE ? n.outerHTML : n.textContent)).join('');

/**
 * Streams `chunks` as the transcript does (`extend` with the part added), or through `setText` with the
 * whole text so far for the chunks whose index is in `compared`. Returns the blocks shown (the groups'
 * and segments' wrappers left out), the whole text rendered at once, and what went wrong with the
 * finished segments: one changed or gone after it was made, or a group over GROUP_SIZE.
 */
window.__streamProbe = (chunks, compared) => {
  const m = new StreamingMarkdown('');
  const seen = new Map();
  const problems = [];
  let text = '';
  chunks.forEach((chunk, i) => {
    text += chunk;
    if (compared.includes(i)) m.setText(text);
    else m.extend(text, chunk);
    for (const seg of m.el.querySelectorAll('.md-seg')) if (!seen.has(seg)) seen.set(seg, seg.outerHTML);
    for (const [seg, was] of seen) if (!m.el.contains(seg) || seg.outerHTML !== was) problems.push(`a finished segment was re-rendered after chunk ${i}: ${was}`);
  });
  for (const g of m.el.querySelectorAll('.md-group')) if (g.childElementCount > GROUP_SIZE) problems.push(`a group of ${g.childElementCount}`);
  const blocks = [];
  for (const part of m.el.children) {
    if (part.classList.contains('md-group')) for (const seg of part.children) blocks.push(...seg.childNodes);
    else blocks.push(...part.childNodes);
  }
  return { shown: html(blocks), whole: html([...renderMarkdown(text).childNodes]), segments: seen.size, groupSize: GROUP_SIZE, problems: [...new Set(problems)] };
};
