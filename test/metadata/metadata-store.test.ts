import {
  getDesignParamTypes,
  getDesignType,
  getOwnMetadata,
  isReflectMetadataLoaded,
  metadataKeys,
  updateOwnMetadata,
} from '../../src/metadata/metadata-store.js';

describe('getOwnMetadata', () => {
  it('should read what updateOwnMetadata stored on the class itself, not on a subclass', () => {
    class Base {}
    class Derived extends Base {}
    updateOwnMetadata<readonly string[]>(
      Base,
      metadataKeys.reducers,
      () => [],
      (current) => [...current, 'first'],
    );
    updateOwnMetadata<readonly string[]>(
      Base,
      metadataKeys.reducers,
      () => [],
      (current) => [...current, 'second'],
    );
    expect(getOwnMetadata(Base, metadataKeys.reducers)).toEqual(['first', 'second']);
    expect(getOwnMetadata(Derived, metadataKeys.reducers)).toBeUndefined();
  });

  it("should keep the record out of the class's enumerable keys", () => {
    class Target {}
    updateOwnMetadata(
      Target,
      metadataKeys.describe,
      () => 1,
      (n) => n + 1,
    );
    expect(getOwnMetadata(Target, metadataKeys.describe)).toBe(2);
    expect(Object.keys(Target)).toEqual([]);
  });
});

describe('getDesignParamTypes', () => {
  const decorate: MethodDecorator & PropertyDecorator = () => undefined;
  class Params {}
  class Target {
    @decorate field!: Params;
    @decorate
    method(_params: Params, count: number): number {
      return count;
    }
  }

  it('should return the parameter types the compiler emitted', () => {
    expect(isReflectMetadataLoaded()).toBe(true);
    expect(getDesignParamTypes(Target.prototype, 'method')).toEqual([Params, Number]);
    expect(getDesignType(Target.prototype, 'field')).toBe(Params);
  });

  it('should return undefined for a method without decorator metadata', () => {
    class Undecorated {
      method(params: Params): Params {
        return params;
      }
    }
    expect(getDesignParamTypes(Undecorated.prototype, 'method')).toBeUndefined();
  });
});
