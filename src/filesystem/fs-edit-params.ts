import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsString, ValidateNested } from 'class-validator';

import { Describe } from '../index.js';
import { FsEdit } from './fs-edit.js';

/** Arguments of `fs_edit`. */
export class FsEditParams {
  @Describe('File to edit, relative to the workspace root.')
  @IsString()
  path!: string;

  @Describe('Replacements to make, in order, each on the result of the previous one.')
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => FsEdit)
  edits!: FsEdit[];
}
