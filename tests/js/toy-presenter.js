// A presenter with only the parts every game must have (games.test.mjs): the page fills in the rest.
export function createPresenter(info) {
  return { info, dealLabel: (v) => `deal ${v.deal_number}` };
}
