import 'reflect-metadata';

import { carefulPrompt, supportDeskSuite } from './support-desk-suite.js';

/** The support desk on its own prompt: `affordance-eval run .build/examples/evals/careful.suite.js`. */
export default supportDeskSuite(carefulPrompt, 'support-desk');
