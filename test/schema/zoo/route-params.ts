import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import fc from 'fast-check';

import type { FastPathEntry } from './fast-path-entry.js';

export class Coordinates {
  @IsNumber() @Min(-90) @Max(90) lat!: number;
  @IsNumber() @Min(-180) @Max(180) lng!: number;
}

export class Place {
  @IsString() @MaxLength(20) label!: string;
  @IsOptional() @ValidateNested() @Type(() => Coordinates) at?: Coordinates;
  @IsArray() @ArrayMaxSize(3) @IsString({ each: true }) aliases: string[] = [];
}

export class Stop {
  @ValidateNested() @Type(() => Place) place!: Place;
  @IsInt() @Min(0) minutes!: number;
  @IsOptional() @IsBoolean() skippable?: boolean;
}

function defaultHome(): Coordinates {
  return Object.assign(new Coordinates(), { lat: 51.5, lng: -0.1 });
}

/** Three levels of nesting, arrays of nested classes, nested defaults and optional nested fields. */
export class RouteParams {
  @IsString() name!: string;
  @ValidateNested() @Type(() => Place) origin!: Place;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(4)
  @ValidateNested({ each: true })
  @Type(() => Stop)
  stops!: Stop[];

  @IsOptional() @ValidateNested() @Type(() => Place) destination?: Place | null;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Coordinates)
  waypoints?: Coordinates[];

  @ValidateNested() @Type(() => Coordinates) home: Coordinates = defaultHome();
}

const coordinates = fc.record({
  lat: fc.double({ min: -90, max: 90, noNaN: true }),
  lng: fc.double({ min: -180, max: 180, noNaN: true }),
});

const place = fc.record(
  {
    label: fc.string({ maxLength: 20 }),
    at: fc.oneof(coordinates, fc.constant(null)),
    aliases: fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  },
  { requiredKeys: ['label'] },
);

const stop = fc.record(
  { place, minutes: fc.nat({ max: 600 }), skippable: fc.oneof(fc.boolean(), fc.constant(null)) },
  { requiredKeys: ['place', 'minutes'] },
);

export const routeEntry: FastPathEntry = {
  name: 'route',
  params: RouteParams,
  compilable: true,
  valid: fc.record(
    {
      name: fc.string({ maxLength: 10 }),
      origin: place,
      stops: fc.array(stop, { minLength: 1, maxLength: 4 }),
      destination: fc.oneof(place, fc.constant(null)),
      waypoints: fc.array(coordinates, { maxLength: 3 }),
      home: coordinates,
    },
    { requiredKeys: ['name', 'origin', 'stops'] },
  ),
};
