import { Injectable, Module, Scope } from '@nestjs/common';

import {
  AffordanceRuntime,
  ConfigurationError,
  Prompt,
  Section,
  Tool,
  type ToolContext,
  ToolResult,
} from 'affordance';
import { AffordanceModule, AffordanceService } from 'affordance/nest';
import { ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

import { NestSectionBridge } from '../../src/nest/nest-section-bridge.js';
import { catchRejection } from '../support/catch-error.js';
import { createContext } from '../support/nest-http.js';
import { ScriptPerEvaluation } from '../support/script-per-evaluation.js';

let knowledgeBasesBuilt = 0;

@Injectable()
class KnowledgeBase {
  constructor() {
    knowledgeBasesBuilt += 1;
  }
}

/** An ordinary Nest consumer of the knowledge base, standing in for a controller. */
@Injectable()
class Reporter {
  constructor(readonly knowledgeBase: KnowledgeBase) {}
}

/** What the last tool call ran on: the section instance and the service it had. */
const calls: { section: object; knowledgeBase: KnowledgeBase }[] = [];

@Section({ key: 'library', title: 'Library', template: 'Look things up.' })
class LibrarySection {
  constructor(readonly knowledgeBase: KnowledgeBase) {}

  @Tool({ name: 'lookup', description: 'Look something up.' })
  lookup(_params: undefined, _context: ToolContext): ToolResult<string> {
    calls.push({ section: this, knowledgeBase: this.knowledgeBase });
    return ToolResult.ok('found');
  }
}

let draftsBuilt = 0;

@Section({ key: 'drafts', title: 'Drafts', template: 'Draft replies.' })
@Injectable({ scope: Scope.TRANSIENT })
class DraftSection {
  readonly instance = (draftsBuilt += 1);

  @Tool({ name: 'draft', description: 'Draft a reply.' })
  draft(_params: undefined, _context: ToolContext): ToolResult<number> {
    return ToolResult.ok(this.instance);
  }
}

@Section({ key: 'built', title: 'Built by a factory', template: 'Built elsewhere.' })
class FactorySection {
  constructor(readonly label: string) {}

  @Tool({ name: 'label', description: 'Say the label.' })
  sayLabel(_params: undefined, _context: ToolContext): ToolResult<string> {
    return ToolResult.ok(this.label);
  }
}

const twice = (name: string): ScriptedTurn[] => [
  { toolCalls: [{ name }] },
  { toolCalls: [{ name }] },
  { text: 'done' },
];

describe(NestSectionBridge, () => {
  describe('.discover', () => {
    it('should run tools on the instance Nest holds, with the very services Nest gives other consumers', async () => {
      @Module({
        imports: [
          AffordanceModule.forRoot({
            adapter: () => new ScriptPerEvaluation(() => twice('lookup')),
          }),
        ],
        providers: [KnowledgeBase, Reporter, LibrarySection],
      })
      class LibraryModule {}
      const built = knowledgeBasesBuilt;
      const app = await createContext(LibraryModule);
      calls.length = 0;

      await app
        .get(AffordanceService)
        .evaluate(new Prompt({ ns: 'test/nest', key: 'library', sections: [LibrarySection] }));

      expect(calls).toHaveLength(2);
      for (const call of calls) {
        expect(call.section).toBe(app.get(LibrarySection));
        expect(call.knowledgeBase).toBe(app.get(Reporter).knowledgeBase);
      }
      expect(knowledgeBasesBuilt - built).toBe(1);
      // The runtime's container hands out Nest's instance too: there is no second copy.
      expect(app.get(AffordanceRuntime).container.get(LibrarySection)).toBe(
        app.get(LibrarySection),
      );
      await app.close();
    });

    it('should resolve a transient section once per evaluation context', async () => {
      @Module({
        imports: [
          AffordanceModule.forRoot({
            adapter: () => new ScriptPerEvaluation(() => twice('draft')),
          }),
        ],
        providers: [DraftSection],
      })
      class DraftModule {}
      const app = await createContext(DraftModule);
      const prompt = new Prompt({ ns: 'test/nest', key: 'drafts', sections: [DraftSection] });
      const affordance = app.get(AffordanceService);

      const first = await affordance.evaluate(prompt);
      const second = await affordance.evaluate(prompt);

      const values = [first, second].map((response) =>
        response.toolCalls.map((call) => call.result.value as number),
      );
      expect(values[0]?.[0]).toBe(values[0]?.[1]);
      expect(values[1]?.[0]).toBe(values[1]?.[1]);
      expect(values[0]?.[0]).not.toBe(values[1]?.[0]);
      await app.close();
    });

    it('should resolve a section Nest builds with a factory under its class', async () => {
      @Module({
        imports: [
          AffordanceModule.forRoot({
            adapter: () => new ScriptPerEvaluation(() => twice('label')),
          }),
        ],
        providers: [
          { provide: FactorySection, useFactory: () => new FactorySection('from a factory') },
        ],
      })
      class FactoryModule {}
      const app = await createContext(FactoryModule);

      const response = await app
        .get(AffordanceService)
        .evaluate(new Prompt({ ns: 'test/nest', key: 'built', sections: [FactorySection] }));

      expect(response.toolCalls.map((call) => call.result.value)).toEqual([
        'from a factory',
        'from a factory',
      ]);
      await app.close();
    });

    it('should resolve a section provided under another token with useClass', async () => {
      @Module({
        imports: [
          AffordanceModule.forRoot({
            adapter: () => new ScriptPerEvaluation(() => twice('lookup')),
          }),
        ],
        providers: [KnowledgeBase, { provide: 'library', useClass: LibrarySection }],
      })
      class TokenModule {}
      const app = await createContext(TokenModule);
      calls.length = 0;

      await app
        .get(AffordanceService)
        .evaluate(new Prompt({ ns: 'test/nest', key: 'library', sections: [LibrarySection] }));

      expect(calls.map((call) => call.section)).toEqual([app.get('library'), app.get('library')]);
      await app.close();
    });

    it('should reject a provider with @Tool methods but no @Section, naming it and its module', async () => {
      @Injectable()
      class ForgottenSection {
        @Tool({ name: 'forgotten', description: 'Never offered.' })
        forgotten(_params: undefined, _context: ToolContext): ToolResult<string> {
          return ToolResult.ok('unreachable');
        }
      }
      @Module({
        imports: [AffordanceModule.forRoot({ adapter: () => new ScriptedAdapter([]) })],
        providers: [ForgottenSection],
      })
      class ForgetfulModule {}

      const error = await catchRejection(ConfigurationError, () => createContext(ForgetfulModule));

      expect(error.subject).toBe('ForgottenSection');
      expect(error.problem).toContain('is a provider of ForgetfulModule and has @Tool methods');
      expect(error.fix).toContain("Add @Section({ key: '...', title: '...' }) to ForgottenSection");
    });

    it('should say that @Section options are not inherited when a subclass lacks its own', async () => {
      @Injectable()
      class SpecialLibrarySection extends LibrarySection {}
      @Module({
        imports: [AffordanceModule.forRoot({ adapter: () => new ScriptedAdapter([]) })],
        providers: [KnowledgeBase, SpecialLibrarySection],
      })
      class SubclassModule {}

      const error = await catchRejection(ConfigurationError, () => createContext(SubclassModule));

      expect(error.subject).toBe('SpecialLibrarySection');
      expect(error.problem).toContain(
        'Its base class LibrarySection is a section, but @Section options are not inherited',
      );
    });

    it('should reject a section provided by two modules', async () => {
      @Module({ providers: [KnowledgeBase, LibrarySection], exports: [KnowledgeBase] })
      class FirstModule {}
      @Module({ imports: [FirstModule], providers: [LibrarySection] })
      class SecondModule {}
      @Module({
        imports: [
          AffordanceModule.forRoot({ adapter: () => new ScriptedAdapter([]) }),
          FirstModule,
          SecondModule,
        ],
      })
      class TwiceModule {}

      const error = await catchRejection(ConfigurationError, () => createContext(TwiceModule));

      expect(error.subject).toBe('LibrarySection');
      expect(error.problem).toMatch(
        /provided by two Nest modules, (FirstModule and SecondModule|SecondModule and FirstModule)/,
      );
      expect(error.fix).toBe(
        'Provide LibrarySection in one module and export it from there to the modules that inject it.',
      );
    });

    it('should reject a section that the affordance container also binds', async () => {
      @Module({
        imports: [
          AffordanceModule.forRoot({
            adapter: () => new ScriptedAdapter([]),
            configure: (container) => {
              container.bind(LibrarySection).toSelf();
            },
          }),
        ],
        providers: [KnowledgeBase, LibrarySection],
      })
      class BoundTwiceModule {}

      const error = await catchRejection(ConfigurationError, () => createContext(BoundTwiceModule));

      expect(error.subject).toBe('LibrarySection');
      expect(error.problem).toContain('is also bound in the affordance container');
    });
  });
});
