/**
 * The Testing page shows a test file: it runs here as it is, so its
 * `describe` block is part of this suite.
 */
import '../../docs/snippets/testing/order-agent.check.js';
