import { plainToInstance, Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';

import type { ApprovalDecision } from 'affordance';

/** A person's decision for one pending call. */
export class DecisionDto {
  /** The pending call's id, as the 202 answer listed it. */
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  callId!: string;

  @IsBoolean()
  approved!: boolean;

  /** For a rejection: what the agent reads (and tells the customer). */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  message?: string;
}

/** The body of `POST /agent/approvals/:stateId`: one decision per pending call. */
export class DecideDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => DecisionDto)
  decisions!: DecisionDto[];
}

/**
 * The query of `GET /chat/resume`: the paused chat's state id and the
 * decisions as JSON text (an `EventSource` can only send a GET).
 */
export class ChatResumeQuery {
  @IsUUID()
  stateId!: string;

  @Transform(({ value }) => decisionsFromJson(value))
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  decisions!: DecisionDto[];
}

/** The runtime's decisions from validated ones (only the fields it reads). */
export function approvalDecisions(decisions: readonly DecisionDto[]): ApprovalDecision[] {
  return decisions.map(({ callId, approved, message }) => ({ callId, approved, message }));
}

/**
 * The `decisions` query parameter as `DecisionDto`s: JSON text is parsed
 * (an array already parsed, e.g. by an earlier pipe, is taken as it is); what
 * is not a JSON array is left for the validator to refuse.
 */
function decisionsFromJson(value: unknown): unknown {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return value;
    }
  }
  if (!Array.isArray(parsed)) return parsed;
  return parsed.map((item: unknown) =>
    typeof item === 'object' && item !== null ? plainToInstance(DecisionDto, item) : item,
  );
}
