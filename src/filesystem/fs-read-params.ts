import { IsInt, IsOptional, IsString, Min } from 'class-validator';

import { Describe } from '../index.js';

/** Arguments of `fs_read`. */
export class FsReadParams {
  @Describe('File to read, relative to the workspace root.')
  @IsString()
  path!: string;

  @Describe('First line to show, counting from 1; 1 when left out.')
  @IsOptional()
  @IsInt()
  @Min(1)
  startLine?: number | null;

  @Describe('How many lines to show; as many as allowed when left out.')
  @IsOptional()
  @IsInt()
  @Min(1)
  lineCount?: number | null;
}
