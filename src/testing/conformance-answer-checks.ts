import { type EvaluationStreamPart, PromptEvaluationError, type ToolDefinition } from '../index.js';
import {
  answerChars,
  type ProviderCapabilities,
  ProviderAdapter,
  type ProviderRequest,
  type ProviderTurn,
  type ToolSpec,
} from '../provider/index.js';
import type { AdapterConformanceCheck } from './adapter-harness.js';
import { conformancePrompts } from './conformance-prompts.js';
import {
  type CheckRun,
  conformanceFailure,
  defineCheck,
  expectPhase,
  freshRuntime,
  stoppedIn,
  withAdapter,
} from './conformance-support.js';

const LIMIT = 1_000;
const script = [{ text: 'An answer far too long to keep. '.repeat(1_000) }];
const STOP_READING =
  'stop reading an answer once its text, reasoning and tool-call arguments pass ProviderRequest.maxAnswerChars, ' +
  "and throw answerTooLarge's error (affordance/provider): readJsonBody with maxAnswerChars and " +
  'checkAnswerSize do it for a whole answer.';

/** Passes every request to `inner` and notes the largest turn it returned. */
class Watched extends ProviderAdapter {
  readonly name: string;
  readonly capabilities: ProviderCapabilities;
  /** The most characters of a turn `inner.request()` returned. */
  returnedChars = 0;

  constructor(private readonly inner: ProviderAdapter) {
    super();
    this.name = inner.name;
    this.capabilities = inner.capabilities;
  }

  async request(request: ProviderRequest): Promise<ProviderTurn> {
    const turn = await this.inner.request(request);
    this.returnedChars = Math.max(this.returnedChars, answerChars(turn));
    return turn;
  }

  override toolSpec(tool: ToolDefinition, descriptions?: ReadonlyMap<string, string>): ToolSpec {
    return this.inner.toolSpec(tool, descriptions);
  }

  override validate(tools: readonly ToolDefinition[]): void {
    this.inner.validate(tools);
  }
}

/** Throws unless `error` names the answer limit. */
function expectLimitNamed(run: CheckRun, error: PromptEvaluationError): void {
  if (error.message.includes(`maxAnswerChars (${LIMIT}`)) return;
  throw conformanceFailure(
    run,
    `expected the error to name maxAnswerChars (${LIMIT}), got: ${error.message}`,
    STOP_READING,
    error,
  );
}

const wholeAnswer = defineCheck(
  'refuses a whole answer over maxAnswerChars instead of returning it',
  async (run) => {
    const { tools } = conformancePrompts();
    await withAdapter(run, script, {}, async (opened) => {
      const watched = new Watched(opened.adapter);
      const running = freshRuntime().evaluate(tools, {
        adapter: watched,
        maxAnswerChars: LIMIT,
      });
      expectLimitNamed(run, await stoppedIn(run, running, 'response', STOP_READING));
      if (watched.returnedChars > LIMIT) {
        throw conformanceFailure(
          run,
          `request() returned a turn of ${watched.returnedChars} characters though maxAnswerChars was ${LIMIT}.`,
          STOP_READING,
        );
      }
    });
  },
);

const streamedAnswer = defineCheck(
  'ends a stream over maxAnswerChars with an error part naming the limit',
  async (run) => {
    const { tools } = conformancePrompts();
    await withAdapter(run, script, {}, async (opened) => {
      const parts: EvaluationStreamPart[] = [];
      const stream = freshRuntime().stream(tools, {
        adapter: opened.adapter,
        maxAnswerChars: LIMIT,
      });
      for await (const part of stream) parts.push(part);
      const last = parts.at(-1);
      if (last?.type !== 'error') {
        throw conformanceFailure(
          run,
          `expected the stream to end with an 'error' part, got ${parts.map((part) => part.type).join(', ')}.`,
          STOP_READING,
        );
      }
      expectLimitNamed(run, expectPhase(run, last.error, 'response', STOP_READING));
      if (!PromptEvaluationError.is(last.error)) throw last.error;
    });
  },
);

/** The checks of the answer limit (`maxAnswerChars`), whole and streamed. */
export const answerChecks: readonly AdapterConformanceCheck[] = [wholeAnswer, streamedAnswer];
