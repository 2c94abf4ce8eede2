// check_report.js — drives pmc's HTML report in headless Chromium through
// playwright-core (tests/integration/html_report.sh): prints what the page
// shows, one "key value" a line, for the shell test to compare with the
// text report; saves a screenshot.
//   node check_report.js PLAYWRIGHT_DIR PAGE.html SCREENSHOT.png PROFILE_DIR
const path = require('path');
const { chromium } = require(path.join(process.argv[2], 'node_modules', 'playwright-core'));
const [page_file, shot, profile] = process.argv.slice(3);

(async () => {
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
    viewport: { width: 1280, height: 1000 },
  });
  try {
    const page = await ctx.newPage();
    await page.goto('file://' + page_file);
    await page.waitForFunction(() => document.getElementById('status').textContent !== 'loading');
    console.log('status ' + await page.textContent('#status'));
    // every row on one page
    await page.selectOption('#per', '0');
    const rows = () => page.$$eval('#flat tr', trs => trs.slice(1).map(tr =>
      Array.from(tr.children).map(td => td.textContent.trim())));
    let r = await rows();
    console.log('rows ' + r.length);
    console.log('rowsinfo ' + await page.textContent('#rows'));
    // columns: Children, Samples (children), Self, Samples (self), Command, Shared Object, Symbol
    const main = r.find(x => x[6] === 'main');
    console.log('main_children ' + (main ? main[0] : 'none'));
    console.log('first_default ' + r[0][6]);
    await page.click('#flat th[data-key="self"]');
    r = await rows();
    console.log('first_by_self ' + r[0][6] + ' ' + r[0][2]);
    await page.click('#flat th[data-key="sym"]');
    r = await rows();
    console.log('first_by_sym ' + r[0][6]);
    await page.fill('#q', 'malloc');
    console.log('matched ' + await page.textContent('#matched'));
    console.log('matched_samples ' + await page.getAttribute('#matched', 'data-samples'));
    console.log('total ' + await page.evaluate(() => JSON.parse(
      document.getElementById('data').textContent).events[0].tree.v));
    await page.screenshot({ path: shot, fullPage: false });
    console.log('shot ' + shot);
  } finally {
    await ctx.close();
  }
})().catch(e => { console.log('error ' + e.message); process.exit(1); });
