import { IsNumber, IsString, Matches, MaxLength, Min, MinLength } from 'class-validator';

import { Describe, Media, Section, Tool, type ToolContext, ToolResult } from 'affordance';

import { pngImage } from '../shared/png-image.js';

/** Arguments of `open_claim`: what the model read from the customer's files. */
export class OpenClaimParams {
  @Describe('The invoice number printed on the PDF, e.g. "INV-0042"')
  @Matches(/^INV-\d{4}$/)
  invoice!: string;

  @Describe('The amount charged on that invoice, in euros')
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0.01)
  amount!: number;

  @Describe('What the screenshot shows went wrong, in one sentence')
  @IsString()
  @MinLength(10)
  @MaxLength(300)
  problem!: string;
}

/** A claim opened by `open_claim`. */
export class Claim {
  constructor(
    readonly id: string,
    readonly invoice: string,
    readonly amount: number,
    readonly problem: string,
  ) {}
}

/**
 * The claims desk: the model reads the customer's screenshot and invoice and
 * opens a claim from what it saw; the tool answers with a receipt image (a
 * green stamp), which goes back to the model like any media part.
 */
@Section({
  key: 'claims',
  title: 'Claims',
  template: [
    'Customers send a screenshot of the error they saw and the PDF invoice they were charged.',
    'Read both, then open a claim with the invoice number, the amount and what went wrong.',
  ].join('\n'),
})
export class ClaimsSection {
  readonly claims: Claim[] = [];

  @Tool({ name: 'open_claim', description: 'Open a claim for a charge that went wrong.' })
  open(params: OpenClaimParams, _context: ToolContext): ToolResult<Claim> {
    const claim = new Claim(
      `C-${100 + this.claims.length}`,
      params.invoice,
      params.amount,
      params.problem,
    );
    this.claims.push(claim);
    const stamp = Media.image(
      pngImage(48, 48, (x, y) =>
        (x - 24) ** 2 + (y - 24) ** 2 < 400 ? [22, 163, 74] : [255, 255, 255],
      ),
      { filename: `${claim.id}-receipt.png` },
    );
    return new ToolResult({
      message: `Claim ${claim.id} opened for ${claim.invoice} (€${claim.amount.toFixed(2)}); its receipt is attached.`,
      value: claim,
      parts: [stamp],
    });
  }
}
