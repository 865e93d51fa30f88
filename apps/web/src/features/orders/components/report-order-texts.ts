/** Texts of "This wasn't me" (product.md §30.6), apart from the dialog so that a list can label its button without loading it. */
export const ReportOrderTexts = {
  action: "This wasn't me",
  title: "This wasn't me",
  help: (amount: string) =>
    `If you did not make this purchase (${amount}), report it. The seller is not paid while our team reviews it.`,
  detailsLabel: 'Details (optional)',
  detailsHint: 'Anything that helps us, e.g. when you noticed it.',
  submit: 'Report purchase',
  done: 'Reported — our team will review it. If you did not make this purchase, change your password and sign out other sessions.',
  security: 'Go to Security',
  close: 'Done',
  failed: 'Failed to report the purchase',
} as const;
