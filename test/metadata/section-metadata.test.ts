import { Section } from '../../src/decorators/section.js';
import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { isSectionClass, readSectionOptions } from '../../src/prompt/section-metadata.js';
import { catchError } from '../support/catch-error.js';

@Section({ key: 'faq', title: 'FAQ', template: 'Answer from the FAQ.' })
class FaqSection {}

class PlainFaq extends FaqSection {}

describe('isSectionClass', () => {
  it('should recognise a class decorated with @Section itself', () => {
    expect(isSectionClass(FaqSection)).toBe(true);
  });

  it('should not count a subclass that is not decorated, nor non-classes', () => {
    expect(isSectionClass(PlainFaq)).toBe(false);
    expect(isSectionClass(class Other {})).toBe(false);
    expect(isSectionClass({ key: 'faq' })).toBe(false);
    expect(isSectionClass(undefined)).toBe(false);
  });
});

describe('readSectionOptions', () => {
  it('should return the options given to @Section', () => {
    expect(readSectionOptions(FaqSection)).toEqual({
      key: 'faq',
      title: 'FAQ',
      template: 'Answer from the FAQ.',
    });
  });

  it('should reject an undecorated subclass and name its decorated base', () => {
    const error = catchError(ConfigurationError, () => readSectionOptions(PlainFaq));
    expect(error.subject).toBe('PlainFaq');
    expect(error.problem).toContain('Its base class FaqSection is one');
    expect(error.problem).toContain('not inherited');
    expect(error.fix).toContain('Add @Section({');
    expect(error.fix).toContain('MarkdownSection');
  });

  it('should let a decorated subclass keep its own options', () => {
    @Section({ key: 'faq_short', title: 'Short FAQ' })
    class ShortFaq extends FaqSection {}
    expect(readSectionOptions(ShortFaq).key).toBe('faq_short');
    expect(readSectionOptions(FaqSection).key).toBe('faq');
  });
});
