import { IsArray, IsString } from 'class-validator';

import { Describe } from '../index.js';

/** Arguments of `planning_add_step`. */
export class AddStepParams {
  @Describe('Titles of the steps to append, in order (at least one).')
  @IsArray()
  @IsString({ each: true })
  steps!: string[];
}
