import { ToolExample } from '../../src/tools/tool-example.js';

class Params {
  query = 'refunds';
}

describe('ToolExample', () => {
  describe('when built', () => {
    it('should keep its description, input and output as given', () => {
      const input = new Params();
      const output = ['Refund policy'];
      const example = new ToolExample({ description: ' Find refunds. ', input, output });
      expect(example.description).toBe(' Find refunds. ');
      expect(example.input).toBe(input);
      expect(example.output).toBe(output);
    });

    it('should leave input and output undefined when omitted', () => {
      const example = new ToolExample({ description: 'Ping.' });
      expect(example.input).toBeUndefined();
      expect(example.output).toBeUndefined();
    });
  });
});
