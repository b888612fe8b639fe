/**
 * Quickstart: enroll stores, manage one, read bookings, acknowledge them, list videos, read the
 * reports, and handle a typed error.
 *
 *   PARTNER_API_KEY=crp_test_… PARTNER_API_BASE_URL=http://127.0.0.1:4010 npx tsx examples/quickstart.ts
 *
 * `npm run demo` runs it against the embedded sandbox and lets a simulated week pass in the middle.
 */
import { pathToFileURL } from 'node:url';
import { NotFoundError, PartnerClient, ProhibitedRuleError, isPartnerError } from '@crp/partner-sdk';

export interface QuickstartOptions {
  /** Lets time pass between enrollment and reading bookings (the sandbox can; the real service cannot). */
  letTimePass?: (days: number) => void | Promise<void>;
  print?: (line: string) => void;
}

const stores = [
  { partner_location_id: 'sf-mission-01', name: 'Mission Noodle Bar', line1: '2100 Mission St', city: 'San Francisco', state: 'CA', postal_code: '94110' },
  { partner_location_id: 'sf-sunset-02', name: 'Sunset Dumpling House', line1: '1200 Irving St', city: 'San Francisco', state: 'CA', postal_code: '94122' },
  { partner_location_id: 'sea-pike-03', name: 'Pike Street Tacos', line1: '85 Pike St', city: 'Seattle', state: 'WA', postal_code: '98101' },
];

export async function runQuickstart(client: PartnerClient, options: QuickstartOptions = {}): Promise<void> {
  const print = options.print ?? console.log;
  const step = (title: string) => print(`\n── ${title}`);

  step(`1. Enroll ${stores.length} stores (${client.environment})`);
  for (const { partner_location_id, name, ...address } of stores) {
    const { data: store, response } = await client.locations
      .enroll({ partner_location_id, name, address: { ...address, country: 'US' } })
      .withResponse();
    print(`   ${response.status === 201 ? 'enrolled' : 'already enrolled'}  ${store.partner_location_id}  ${store.name}  hours: ${store.hours.state}  time zone: ${store.time_zone ?? '?'}`);
  }
  const onHold = await client.locations.get(stores[0]!.partner_location_id);
  if (onHold.hours.state === 'missing') {
    print(`   ${onHold.partner_location_id} is on hold until its hours are known; sending them:`);
    const day = [{ open: '11:00', close: '22:00' }];
    const updated = await client.locations.update(onHold.partner_location_id, {
      hours: { weekly: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day } },
    });
    print(`   hours: ${updated.hours.state}`);
  }

  step('2. Pause one store, then resume it');
  const paused = await client.locations.pause('sea-pike-03');
  print(`   sea-pike-03 is ${paused.status}`);
  const resumed = await client.locations.resume('sea-pike-03');
  print(`   sea-pike-03 is ${resumed.status} again`);

  if (options.letTimePass) {
    step('3. A week passes: creators book, visit and post');
    await options.letTimePass(7);
  } else {
    step('3. (Against a real service time passes on its own; reading what is there now.)');
  }

  step('4. Walk every booking with for await, and acknowledge the new ones');
  let seen = 0;
  let acknowledged = 0;
  for await (const booking of client.reservations.list({ limit: 50 })) {
    seen++;
    if (seen <= 5) {
      print(`   ${booking.reservation_id}  ${booking.partner_location_id.padEnd(14)} ${booking.status.padEnd(10)} ${booking.visit_at ?? '(no time yet)'}  party of ${booking.party_size}  ${booking.creator.handle}`);
    }
    if (booking.acknowledged_kind === null) {
      await client.reservations.acknowledge(booking.reservation_id, 'forwarded_to_manager');
      acknowledged++;
    }
  }
  print(`   ${seen} bookings in all; acknowledged ${acknowledged}`);

  step('5. Videos published');
  for (const { partner_location_id } of stores) {
    let count = 0;
    for await (const video of client.content.list(partner_location_id)) {
      if (count++ === 0) print(`   ${partner_location_id}: ${video.platform} ${video.url}`);
    }
    print(`   ${partner_location_id}: ${count} video(s)`);
  }

  step('6. Summary and this month’s billing counts');
  const summary = await client.reports.summary();
  print(`   stores: ${summary.locations.total} (${summary.locations.active} active), bookings completed: ${summary.reservations.completed}, no-shows: ${summary.reservations.no_show}, videos: ${summary.videos_published}`);
  const month = summary.generated_at.slice(0, 7);
  for await (const row of client.reports.billingMonthly(month)) {
    print(`   ${month}  ${row.partner_location_id.padEnd(14)} videos ${row.videos_published}  completed ${row.completed_visits}  no-shows ${row.no_shows}`);
  }

  step('7. Typed errors you can branch on');
  try {
    await client.locations.get('no-such-store');
  } catch (error) {
    if (error instanceof NotFoundError) print(`   NotFoundError (${error.status} ${error.code}), request ${error.requestId}`);
    else throw error;
  }
  try {
    await client.locations.update('sf-sunset-02', {
      // @ts-expect-error: the type refuses it too; this shows the runtime guard for untyped callers
      rules: { follower_range: { min: 5000 }, target_age: '18-25' },
    });
  } catch (error) {
    if (error instanceof ProhibitedRuleError) print(`   ProhibitedRuleError on ${error.field}: refused before sending`);
    else throw error;
  }
  try {
    // @ts-expect-error: preferred_language is en or zh
    await client.locations.update('sf-sunset-02', { preferred_language: 'fr' });
  } catch (error) {
    if (isPartnerError(error) && error.code === 'validation_error') print(`   ValidationError on ${error.field}: ${error.message}`);
    else throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const client = new PartnerClient();
  runQuickstart(client)
    .finally(() => client.close())
    .catch((error: unknown) => {
      console.error(isPartnerError(error) ? error.toJSON() : error);
      process.exitCode = 1;
    });
}
