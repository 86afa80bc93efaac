/**
 * One fresh process of the `cold-process` bench: imports affordance and its
 * dependencies, declares the cold-start prompt, then builds it once (container
 * prepared, first render) and renders it again, and prints the times (from the
 * process's start) as JSON on stdout.
 */
import 'reflect-metadata';

import { Container } from 'inversify';

import { installAffordance, Prompt } from '../../src/index.js';
import { declareSections, sections, toolsPerSection } from './section-classes.js';

const imported = performance.now();
const classes = declareSections(0);
const declared = performance.now();
const cpu = process.cpuUsage();
const runtime = installAffordance(new Container());
const prompt = new Prompt({ ns: 'bench', key: 'cold-process', sections: classes });
runtime.prepare(prompt);
const first = prompt.render();
const built = performance.now();
const buildCpu = process.cpuUsage(cpu);
if (first.tools.length !== sections * toolsPerSection) throw new Error('tools missing');
const again = prompt.render();
const rendered = performance.now();
if (again.tools.length !== first.tools.length) throw new Error('tools missing on the later render');
console.log(
  JSON.stringify({
    importMs: imported,
    declareMs: declared - imported,
    firstBuildMs: built - declared,
    firstBuildCpuMs: (buildCpu.user + buildCpu.system) / 1000,
    laterRenderMs: rendered - built,
  }),
);
