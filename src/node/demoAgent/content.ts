/**
 * What the demo agent says and offers. Kept apart from the protocol logic so the UI tests can
 * rely on exact strings (e.g. DEMO_SENTENCE) without reading the agent's control flow.
 */
export const DEMO_SENTENCE = 'Hello from the ACP Chat demo agent.';

export const AGENT_INFO = { name: 'acp-chat-demo', title: 'ACP Chat demo agent', version: '0.1.0' };

export const COMMANDS = [
  { name: 'help', description: 'Show what the demo agent can do' },
  { name: 'plan', description: 'Show a plan for the task', input: { hint: 'what to plan' } },
  { name: 'tools', description: 'List the tools the demo agent can call' },
  { name: 'compact', description: 'Compact the conversation: a summary replaces the history' },
  { name: 'ask', description: 'Ask you a few questions in a form' },
  { name: 'long', description: 'Stream a long answer' },
  { name: 'code', description: 'Answer with a code block that names its file (Copy, Insert, Apply)' },
  { name: 'subagent', description: 'Have a subagent (a child session) make an edit' },
];

export const MODES = [
  { id: 'ask', name: 'Ask', description: 'Answer questions; ask before editing' },
  { id: 'code', name: 'Code', description: 'Edit files and run commands' },
];

export const MODELS = [
  { value: 'demo-fast', name: 'Demo Fast', description: 'Streams quickly' },
  { value: 'demo-smart', name: 'Demo Smart', description: 'Same answers, more gravitas' },
];

export function thoughtText(prompt: string): string {
  const short = prompt.length > 40 ? `${prompt.slice(0, 40)}…` : prompt;
  return `The user asked: "${short}". I will answer in markdown, then look at a file in the workspace.`;
}

export function answerMarkdown(prompt: string): string {
  return [
    `${DEMO_SENTENCE} You said: *${prompt.replace(/[\r\n]+/g, ' ').slice(0, 80)}*`,
    '',
    '## What I can show',
    '',
    '- streamed **markdown** with `inline code`',
    '- a plan, a thought and tool calls',
    '- permission requests (say *edit*) and terminals (say *run*)',
    '',
    '```ts',
    'const greeting: string = "hello, ACP";',
    'console.log(greeting);',
    '```',
    '',
    '| Feature | Status |',
    '| --- | --- |',
    '| Streaming | ✅ |',
    '| Tool calls | ✅ |',
    '',
  ].join('\n');
}

export const HELP_TEXT = [
  'Commands: `/help`, `/plan`, `/tools`, `/ask` (a question form), `/long` (a long streamed answer), `/code` (a code block you can apply to its file), `/subagent` (a subagent makes an edit), `/compact` (compacts the conversation: a summary replaces the history, and the context meter empties), `/setup` (the folders, system prompt and MCP servers this session was opened with).',
  '',
  'Say **edit** or **permission** to see a permission request and a file write; say **run** or **terminal** to run a command.',
  'Say **subagent** to have a subagent (a child session) make that edit; with **background** too it works on after the turn ends.',
].join('\n');

export const TOOLS_TEXT =
  '- `read` — look at a workspace file\n- `edit` — write `demo-edit.txt` (asks first)\n- `yourself` — change `demo-self.txt` on disk directly, reporting only a diff\n- `execute` — run `echo` in a terminal\n- `subagent` — start a subagent that edits `demo-edit.txt` (asks first)';

export const CLOSING_TEXT = 'That is all for this turn. Ask me to **edit** or **run** something next.';

/** `/code`: a code block that names its file, so the chat offers Apply to file (a diff preview first). */
export const CODE_ANSWER = [
  'Here is a small helper for `demo-code.ts`:',
  '',
  '```ts demo-code.ts',
  'export function greet(name: string): string {',
  '  return `Hello, ${name}!`;',
  '}',
  '```',
  '',
  'Apply it to the file, or copy it.',
].join('\n');
