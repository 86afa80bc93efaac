import { IsBoolean, IsOptional, IsString } from 'class-validator';

import { Describe } from '../index.js';

/** One replacement of an `fs_edit` call. */
export class FsEdit {
  @Describe('Exact text to replace, copied from the file (without fs_read line numbers).')
  @IsString()
  oldText!: string;

  @Describe('The text to put in its place.')
  @IsString()
  newText!: string;

  @Describe('Replace every occurrence; otherwise oldText must occur exactly once.')
  @IsOptional()
  @IsBoolean()
  replaceAll?: boolean | null;
}
