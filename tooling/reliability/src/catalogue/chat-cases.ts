import { parseGenerateArgs, runGenerate } from '@attnkit/cli';
import { loadTokenizer, renderChatTemplate, type ChatMessage } from '@attnkit/tokenizers';
import { rejects, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const E = 'InvalidArgumentError';
const T = 'ChatTemplateError';
const user: ChatMessage = { role: 'user', content: 'Hi' };
const smollm2 = repoPath('tooling/reference/fixtures/chat-templates/smollm2');
const gpt2 = repoPath('tooling/reference/fixtures/decoders/gpt2');
const generate = (...argv: string[]) => parseGenerateArgs(['--model', gpt2, '--prompt', 'Hi', ...argv]);

/** Chat templates (`applyChatTemplate`, `renderChatTemplate`) and `attnkit generate`. */
export const chatCases: CatalogueCase[] = [
  rejects('chat', 'a template that fails to parse (an unclosed for)', T, /^renderChatTemplate: the chat template cannot be rendered: .+/, () => renderChatTemplate('{% for m in messages %}{{ m.content }}', [user])),
  rejects('chat', 'a template that fails while rendering (calls a method a string lacks)', T, /^renderChatTemplate: the chat template cannot be rendered: .+/, () => renderChatTemplate('{{ messages[0].content.no_such_method() }}', [user])),
  rejects('chat', "a template's raise_exception (its own message kept)", T, /^renderChatTemplate: the chat template refused the conversation: Conversation roles must alternate user\/assistant$/, () => renderChatTemplate("{{ raise_exception('Conversation roles must alternate user/assistant') }}", [user])),
  rejects('chat', 'messages that are not a list', E, /^renderChatTemplate: 'messages' must be a non-empty list of messages \{ role: string, content: string \| parts \| null \}; received string/, () => renderChatTemplate('{{ messages }}', 'Hi' as never)),
  rejects('chat', 'an empty conversation', E, /^renderChatTemplate: 'messages' must be a non-empty list of messages .*; received an empty list\.$/, () => renderChatTemplate('{{ messages }}', [])),
  rejects('chat', 'a message without a role', E, /^renderChatTemplate: 'messages\[1\]\.role' must be a role such as 'system', 'user' or 'assistant'; received undefined\.$/, () => renderChatTemplate('{{ messages }}', [user, { content: 'x' } as never])),
  rejects('chat', 'a message whose content is a number', E, /^renderChatTemplate: 'messages\[0\]\.content' must be text, a list of content parts, an object or null/, () => renderChatTemplate('{{ messages }}', [{ role: 'user', content: 7 }])),
  rejects('chat', 'a variable that redeclares an engine global (raise_exception)', E, /^renderChatTemplate: 'variables\.raise_exception' must be no variable the renderer sets/, () => renderChatTemplate('{{ messages }}', [user], { variables: { raise_exception: 'x' } })),
  rejects('chat', 'continueFinalMessage with addGenerationPrompt', E, /^renderChatTemplate: 'continueFinalMessage' must be false with addGenerationPrompt: true/, () => renderChatTemplate('{{ messages }}', [user], { continueFinalMessage: true, addGenerationPrompt: true })),
  rejects('chat', 'an unknown template name (the folder has two)', E, /^Tokenizer\.applyChatTemplate: 'templateName' must be one of the folder's chat templates \('default', 'no_system'\); received 'chatml'\.$/, async () => (await loadTokenizer(smollm2)).applyChatTemplate([user], { templateName: 'chatml' })),
  rejects('chat', 'a tokenizer folder without a chat template', T, /^Tokenizer\.applyChatTemplate: the tokenizer has no chat template: its folder has no chat_template\.jinja and tokenizer_config\.json has no "chat_template" key/, async () => (await loadTokenizer(gpt2)).applyChatTemplate([user])),
  rejects('chat', 'generate --temperature -1', E, /^attnkit generate: '--temperature' must be a number from 0 \(greedy\) to 100; received "-1"\./, () => generate('--temperature=-1')),
  rejects('chat', 'generate --top-p 2', E, /^attnkit generate: '--top-p' must be a number in \(0, 1\]; received "2"\./, () => generate('--top-p', '2')),
  rejects('chat', 'generate --max-new-tokens 0', E, /^attnkit generate: '--max-new-tokens' must be a whole number from 1 to 1000000; received "0"\./, () => generate('--max-new-tokens', '0')),
  rejects('chat', 'generate --temperature Infinity', E, /^attnkit generate: '--temperature' must be a number from 0 \(greedy\) to 100; received "Infinity"\./, () => generate('--temperature', 'Infinity')),
  rejects('chat', 'generate --temperature 0 with --seed (greedy draws nothing)', E, /^attnkit generate: '--seed' must be left out with --temperature 0/, () => generate('--temperature', '0', '--seed', '1')),
  rejects('chat', 'generate --chat on a folder without a chat template', E, /^attnkit generate: '--chat' must be a model folder with a chat template .*which has none \(a base model: leave out --chat\)\./, () => runGenerate(generate('--chat', '--backend', 'cpu'))),
];
