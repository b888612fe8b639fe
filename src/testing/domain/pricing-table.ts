import { DomainError } from '../model/domain-error.js';

/**
 * The sandbox's price list: price per video in minor units, by plan and currency. The real
 * service's prices may differ; these only need to be stable for tests.
 */
export const PRICES: Record<string, Record<string, number>> = {
  starter: { USD: 4900, CAD: 6500, GBP: 3900, EUR: 4500, CNY: 34900, JPY: 7400, AUD: 7500 },
  growth: { USD: 3900, CAD: 5200, GBP: 3100, EUR: 3600, CNY: 27900, JPY: 5900, AUD: 5900 },
  pro: { USD: 2900, CAD: 3900, GBP: 2300, EUR: 2700, CNY: 20900, JPY: 4400, AUD: 4400 },
};

const CURRENCY_BY_COUNTRY: Record<string, string> = {
  US: 'USD',
  CA: 'CAD',
  GB: 'GBP',
  CN: 'CNY',
  JP: 'JPY',
  AU: 'AUD',
  ...Object.fromEntries(['DE', 'FR', 'ES', 'IT', 'NL', 'IE', 'AT', 'BE', 'PT', 'FI'].map((c) => [c, 'EUR'])),
};

/** A quote in the contract's shape; an unknown plan is refused. */
export function quote(plan: string, videosPerMonth: number, country: string | undefined, surcharge: number) {
  const prices = PRICES[plan];
  if (!prices) throw new DomainError({ kind: 'unknown_plan', plan, plans: Object.keys(PRICES) });
  const currency = currencyFor(country);
  const price = prices[currency] ?? 0;
  return {
    plan,
    videos_per_month: videosPerMonth,
    currency,
    price_per_video_cents: price,
    surcharge_per_video_cents: surcharge,
    total_cents: (price + surcharge) * videosPerMonth,
  };
}

/** The quote currency: the country's when the price list has it, else USD. */
export function currencyFor(country: string | undefined): string {
  return (country && CURRENCY_BY_COUNTRY[country]) || 'USD';
}
