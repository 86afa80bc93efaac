import { IsArray, IsInt, IsOptional, IsString, Min } from 'class-validator';

import { Describe } from '../../index.js';

/**
 * What the model asks a {@link ShellTool} to run: the `action` of an OpenAI
 * `shell_call`, with camel-case field names.
 */
export class ShellCallParams {
  @Describe('Shell commands to run, in order')
  @IsArray()
  @IsString({ each: true })
  commands!: string[];

  @Describe('Time limit for the commands, in milliseconds')
  @IsOptional()
  @IsInt()
  @Min(0)
  timeoutMs?: number;

  @Describe('Most characters of output to return per stream')
  @IsOptional()
  @IsInt()
  @Min(0)
  maxOutputLength?: number;
}
