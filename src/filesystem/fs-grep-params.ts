import { IsBoolean, IsOptional, IsString } from 'class-validator';

import { Describe } from '../index.js';

/** Arguments of `fs_grep`. */
export class FsGrepParams {
  @Describe('Regular expression to look for in each line (no backreferences or lookaround).')
  @IsString()
  pattern!: string;

  @Describe('Directory or file to search; the workspace root when left out.')
  @IsOptional()
  @IsString()
  path?: string | null;

  @Describe('Only search files whose path (relative to path) matches this glob, e.g. **/*.md.')
  @IsOptional()
  @IsString()
  glob?: string | null;

  @Describe('Ignore upper and lower case.')
  @IsOptional()
  @IsBoolean()
  ignoreCase?: boolean | null;
}
