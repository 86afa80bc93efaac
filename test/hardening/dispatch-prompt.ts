/**
 * The prompt the dispatch property tests and `npm run fuzz` drive: tools with
 * class-validator params (strings, numbers, nested objects, arrays, optional
 * fields, enums), a tool without params, read-only tools (so a run of their
 * calls is a concurrent batch), a tool from a `@Section` class, tools that
 * write session state and fail (so rollback runs), and three tools whose
 * behaviour a test plans per call: `produce` and `peek` return the planned
 * result, `explode` throws the planned value.
 *
 * Imports only the package entry points, so the fuzz runner can run it
 * against the built package.
 */
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEnum,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

import {
  MarkdownSection,
  Prompt,
  Section,
  type Session,
  Tool,
  type ToolContext,
  ToolDefinition,
  ToolResult,
} from 'affordance';

/** A string enum of the order params. */
export enum Mood {
  Calm = 'calm',
  Loud = 'loud',
}

/** A numeric enum of the order params. */
export enum Level {
  Low = 1,
  High = 2,
}

/** A nested object. */
export class Address {
  @IsString() @MaxLength(80) street!: string;
  @Matches(/^\d{5}$/) zip!: string;
  @IsOptional() @IsString() @MaxLength(40) city?: string;
}

/** An item of a nested array. */
export class LineItem {
  @IsString() @MaxLength(60) name!: string;
  @IsInt() @Min(1) @Max(1000) quantity!: number;
  @IsOptional() @IsNumber() @Min(0) price?: number;
}

/** Nested objects, an array of classes, string and numeric enums, optional fields. */
export class OrderParams {
  @ValidateNested() @Type(() => Address) shipping!: Address;
  @IsOptional() @ValidateNested() @Type(() => Address) billing?: Address;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => LineItem)
  items!: LineItem[];
  @IsEnum(Mood) mood!: Mood;
  @IsOptional() @IsEnum(Level) level?: Level;
  @IsOptional() @IsArray() @IsString({ each: true }) @MaxLength(15, { each: true }) tags?: string[];
}

/** A tag of a note. */
export class Tag {
  @IsString() @MaxLength(20) label!: string;
  @IsOptional() @IsInt() weight?: number;
}

/** Strings, a bounded number, a boolean and an optional nested array. */
export class NoteParams {
  @IsString() @MinLength(1) @MaxLength(200) title!: string;
  @IsOptional() @IsString() body?: string;
  @IsNumber() @Min(-1_000_000) @Max(1_000_000) score!: number;
  @IsOptional() @IsBoolean() pinned?: boolean;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => Tag) tags?: Tag[];
}

/** Params of the read-only search. */
export class SearchParams {
  @IsString() @MaxLength(100) query!: string;
  @IsOptional() @IsInt() @Min(1) @Max(50) limit?: number;
}

/** Params of the read-only lookup. */
export class LookupParams {
  @Matches(/^[a-z]+-\d+$/) id!: string;
}

/** Params of `peek`: one optional label. */
export class PeekParams {
  @IsOptional() @IsString() label?: string;
}

/** Every params class of the prompt, nested classes included (their prototypes must never change). */
export const paramsClasses: readonly (new () => object)[] = [
  Address,
  LineItem,
  OrderParams,
  Tag,
  NoteParams,
  SearchParams,
  LookupParams,
  PeekParams,
];

/** A session slice the write tools append to, so a failed call has state to roll back. */
export class OrderPlaced {
  constructor(
    readonly items: number,
    readonly mood: Mood,
  ) {}
}

/** A session slice of the `@Section` tool. */
export class NoteSaved {
  constructor(
    readonly title: string,
    readonly score: number,
  ) {}
}

/** What a test plans for one call of `produce`, `peek` or `explode`. */
export interface PlannedBehaviour {
  /** What `produce` and `peek` return (a `ToolResult` or anything else). */
  readonly returns?: () => unknown;
  /** What `explode` throws, or `peek`/`produce` when `returns` is absent. */
  readonly throws?: () => unknown;
  /** Throw from the handler's promise (a rejection) rather than synchronously. */
  readonly async?: boolean;
  /** A `ToolInvoked` subscriber throws this for the call. */
  readonly subscriberThrows?: () => unknown;
}

/** The planned behaviours of the calls of one evaluation, by session then call id. */
const plans = new WeakMap<Session, ReadonlyMap<string, PlannedBehaviour>>();

/** Plans the behaviour of the calls of the evaluation that runs with `session`. */
export function planBehaviours(
  session: Session,
  behaviours: ReadonlyMap<string, PlannedBehaviour>,
): void {
  plans.set(session, behaviours);
}

/** The behaviour planned for call `callId` of the evaluation that runs with `session`. */
export function plannedBehaviour(session: Session, callId: string): PlannedBehaviour | undefined {
  return plans.get(session)?.get(callId);
}

function planned(context: ToolContext): PlannedBehaviour | undefined {
  return plannedBehaviour(context.session, context.callId);
}

/** Runs the planned behaviour: returns what is planned, throws what is planned, or `fallback`. */
function act(behaviour: PlannedBehaviour | undefined, fallback: () => unknown): unknown {
  const run = (): unknown => {
    if (behaviour?.returns !== undefined) return behaviour.returns();
    if (behaviour?.throws !== undefined) throw behaviour.throws();
    return fallback();
  };
  if (behaviour?.async === true) return Promise.resolve().then(run);
  return run();
}

const createOrder = new ToolDefinition({
  name: 'create_order',
  description: 'Place an order.',
  params: OrderParams,
  handler: (params: OrderParams, context: ToolContext) => {
    const count = params.items.reduce((total, item) => total + item.quantity, 0);
    context.session.slice(OrderPlaced).append(new OrderPlaced(count, params.mood));
    if (count > 500) return ToolResult.error(`Too many items (${count}); at most 500.`);
    return ToolResult.ok({ items: count, mood: params.mood, tags: params.tags ?? [] }, 'Placed.');
  },
});

const ping = new ToolDefinition({
  name: 'ping',
  description: 'Check the service is up.',
  handler: () => ToolResult.ok('pong'),
});

const search = new ToolDefinition({
  name: 'search',
  description: 'Search the catalogue.',
  params: SearchParams,
  readOnly: true,
  handler: async (params: SearchParams) => {
    await Promise.resolve();
    const limit = params.limit ?? 3;
    return ToolResult.ok(
      Array.from({ length: Math.min(limit, 5) }, (_, index) => ({
        rank: index + 1,
        title: `${params.query.slice(0, 20)} #${index + 1}`,
      })),
      `Found ${Math.min(limit, 5)}.`,
    );
  },
});

const lookup = new ToolDefinition({
  name: 'lookup',
  description: 'Look an entity up by id.',
  params: LookupParams,
  readOnly: true,
  handler: (params: LookupParams) =>
    params.id.endsWith('-0')
      ? ToolResult.error(`No entity '${params.id}'.`)
      : ToolResult.ok({ id: params.id, render: () => `Entity ${params.id}` }),
});

const produce = new ToolDefinition({
  name: 'produce',
  description: 'Produce whatever the test planned.',
  handler: (_params: undefined, context: ToolContext) =>
    act(planned(context), () => ToolResult.ok({ produced: true })) as ToolResult,
});

const peek = new ToolDefinition({
  name: 'peek',
  description: 'Peek at whatever the test planned, read-only.',
  params: PeekParams,
  readOnly: true,
  handler: (params: PeekParams, context: ToolContext) =>
    act(planned(context), () => ToolResult.ok(params.label ?? 'peeked')) as ToolResult,
});

const explode = new ToolDefinition({
  name: 'explode',
  description: 'Throw whatever the test planned.',
  handler: (_params: undefined, context: ToolContext) => {
    const behaviour = planned(context);
    const thrown = behaviour?.throws ?? (() => new Error('boom'));
    return act({ throws: thrown, async: behaviour?.async ?? false }, () => undefined) as ToolResult;
  },
});

/** A `@Section` class tool: resolved from the container per call, writes the session, fails on a negative score. */
@Section({ key: 'notes', title: 'Notes', template: 'Save notes with save_note.' })
export class NotesSection {
  @Tool({ name: 'save_note', description: 'Save a note.' })
  saveNote(params: NoteParams, context: ToolContext): ToolResult {
    context.session.slice(NoteSaved).append(new NoteSaved(params.title, params.score));
    if (params.score < 0) return ToolResult.error('A note needs a score of at least 0.');
    return ToolResult.ok({ title: params.title, pinned: params.pinned ?? false }, 'Saved.');
  }
}

/** The names of the prompt's tools. */
export const toolNames = [
  'create_order',
  'ping',
  'search',
  'lookup',
  'produce',
  'peek',
  'explode',
  'save_note',
] as const;

/** The prompt of the dispatch properties. */
export const dispatchPrompt = new Prompt({
  ns: 'hardening',
  key: 'dispatch',
  sections: [
    new MarkdownSection({
      key: 'shop',
      title: 'Shop',
      template: 'Use the tools.',
      tools: [createOrder, ping, search, lookup, produce, peek, explode],
    }),
    NotesSection,
  ],
});
