import { IsOptional, IsString } from 'class-validator';

import { Describe } from '../index.js';

/** Arguments of `fs_glob`. */
export class FsGlobParams {
  @Describe('Glob pattern for file paths: *, ?, ** (any depth), [abc], {a,b}; e.g. src/**/*.ts.')
  @IsString()
  pattern!: string;

  @Describe('Directory the pattern is relative to; the workspace root when left out.')
  @IsOptional()
  @IsString()
  path?: string | null;
}
