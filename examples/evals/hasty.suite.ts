import 'reflect-metadata';

import { hastyPrompt, supportDeskSuite } from './support-desk-suite.js';

/** The support desk on the deliberately worse prompt, to compare with the careful run. */
export default supportDeskSuite(hastyPrompt, 'support-desk');
