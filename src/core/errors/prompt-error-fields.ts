import type { Class } from '../class-type.js';

/** Any class constructor, used to name the params class an error is about. */
export type ClassRef = Class;

/** Structured fields shared by prompt validation and render errors. */
export interface PromptErrorFields {
  /** Keys from the root section to the section concerned; empty when not tied to one. */
  readonly sectionPath?: readonly string[];
  /** The params (or result) class concerned, if any. */
  readonly paramsType?: ClassRef | undefined;
  /** The placeholder, tool name or option concerned, if any. */
  readonly placeholder?: string | undefined;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/** Formats the subject part of a prompt error message. @internal */
export function describePromptSubject(fields: PromptErrorFields): string {
  const parts: string[] = [];
  if (fields.sectionPath !== undefined && fields.sectionPath.length > 0) {
    parts.push(`section '${fields.sectionPath.join('.')}'`);
  }
  if (fields.paramsType !== undefined) parts.push(`params ${fields.paramsType.name}`);
  if (fields.placeholder !== undefined) parts.push(`'${fields.placeholder}'`);
  return parts.length === 0 ? '' : ` [${parts.join(', ')}]`;
}
