#!/usr/bin/env node
// Writes the task bench's fixture pages (fixtures/html/tasks/*.html): one made-up outdoor shop,
// "Northwind Outfitters", with the shell a real shop has on every page (cookie strip, promo
// strip, header with search and dozens of department links, breadcrumbs, footer link columns
// and a newsletter form) around each task's content. Deterministic: running it again gives
// the same files, which are committed (the bench serves them as they are).
//
//   node scripts/task-bench/pages.js            # rewrites fixtures/html/tasks/
'use strict';
const fs = require('fs');
const path = require('path');

const { PATTERNS, docsPage } = require('./docs');

const OUT = path.join(__dirname, '..', '..', 'fixtures', 'html', 'tasks');

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const links = (names, base) => names.map((n) => `<li><a href="${base}${slug(n)}">${esc(n)}</a></li>`).join('\n        ');

const DEPARTMENTS = ['Men', 'Women', 'Kids', 'Hiking', 'Camping', 'Climbing', 'Running', 'Cycling',
  'Water sports', 'Snow sports', 'Travel', 'Footwear', 'Electronics', 'Brands', 'New arrivals', 'Sale'];
const TOP_PICKS = ['Waterproof jackets', 'Tents', 'Sleeping bags', 'Trail shoes', 'Backpacks',
  'Base layers', 'Headlamps', 'Gift cards'];
const FOOTER = {
  'Shop': ['Men', 'Women', 'Kids', 'Footwear', 'Equipment', 'Electronics', 'Brands A-Z', 'Outlet', 'Gift cards', 'Rental'],
  'Customer service': ['Help centre', 'Track my order', 'Delivery options', 'Returns and refunds', 'Repairs', 'Price promise', 'Product recalls', 'Contact us', 'Store finder'],
  'About Northwind': ['Our story', 'Careers', 'Sustainability', 'Press office', 'Affiliates', 'Investors', 'Modern slavery statement', 'Northwind Foundation'],
  'Community': ['Events', 'Expert advice', 'Trail reports', 'Ambassadors', 'Northwind app', 'Member rewards'],
};
const SOCIAL = ['Instagram', 'Facebook', 'YouTube', 'TikTok', 'Pinterest', 'Strava'];
const LEGAL = ['Privacy notice', 'Terms and conditions', 'Cookie policy', 'Accessibility', 'Sitemap'];

const CSS = `
  body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: #1d2327; }
  a { color: #0b5394; }
  .strip { display: flex; gap: 1em; align-items: center; padding: .4em 1em; font-size: 13px; }
  .cookies { background: #fff8e1; border-bottom: 1px solid #e0c97a; }
  .promo { background: #13392b; color: #fff; justify-content: center; }
  .promo a { color: #c6f0d8; }
  header { padding: .6em 1em; border-bottom: 1px solid #ddd; }
  .top { display: flex; gap: 1.5em; align-items: center; }
  .logo { font-weight: 700; font-size: 20px; text-decoration: none; color: #13392b; }
  nav ul, footer ul { list-style: none; margin: 0; padding: 0; }
  .util ul, .depts ul, .picks ul { display: flex; flex-wrap: wrap; gap: .3em 1em; }
  .depts { margin-top: .5em; font-weight: 600; }
  .picks { font-size: 13px; margin-top: .3em; }
  .crumbs ol { display: flex; gap: .5em; list-style: none; padding: 0; font-size: 13px; }
  .page { display: flex; gap: 2em; padding: 1em; }
  .page main { flex: 1; }
  aside { width: 240px; font-size: 14px; }
  footer { background: #f3f5f4; padding: 1em; margin-top: 2em; font-size: 14px; }
  .cols { display: flex; gap: 3em; flex-wrap: wrap; }
  .error { color: #b00020; }
  [aria-invalid="true"] { border-color: #b00020; }
  .toast { position: fixed; right: 1em; bottom: 1em; background: #13392b; color: #fff; padding: .8em 1.2em; border-radius: 6px; }
  .cards { display: grid; grid-template-columns: repeat(4, 1fr); gap: 1em; list-style: none; padding: 0; }
  .card img { width: 100%; height: 120px; background: #e8ecea; }
  .price { font-weight: 700; }
  .was { text-decoration: line-through; color: #666; }
  label { display: block; margin-top: .6em; }
  dialog table td { padding: 0; }
`;

function shell({ title, crumbs, main, aside = '', script = '', css = '' }) {
  const crumbLinks = crumbs.map((c, i) => (i === crumbs.length - 1
    ? `<li aria-current="page">${esc(c)}</li>`
    : `<li><a href="/${i === 0 ? '' : slug(c)}">${esc(c)}</a></li>`)).join('\n        ');
  const cols = Object.entries(FOOTER).map(([h, names]) => `<nav aria-label="${esc(h)}">
      <h2>${esc(h)}</h2>
      <ul>
        ${links(names, '/info/')}
      </ul>
    </nav>`).join('\n    ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} | Northwind Outfitters</title>
<style>${CSS}${css}</style>
</head>
<body>
<div class="strip cookies" role="region" aria-label="Cookie consent" id="cookies">
  <p>We use cookies to run this shop, remember your basket and measure how the site is used. Some are optional. <a href="/info/cookie-policy">Read our cookie policy</a>.</p>
  <button type="button" onclick="document.getElementById('cookies').remove()">Accept all</button>
  <button type="button" onclick="document.getElementById('cookies').remove()">Reject optional cookies</button>
  <button type="button">Cookie settings</button>
</div>
<div class="strip promo" role="region" aria-label="Offers">
  <p>Free delivery on orders over $50 &middot; Members save 10% on full-price gear &middot; <a href="/info/offers">See all offers</a></p>
  <button type="button" aria-label="Dismiss offers" onclick="this.parentNode.remove()">&times;</button>
</div>
<header>
  <a href="#content" class="skip">Skip to main content</a>
  <div class="top">
    <a class="logo" href="/">Northwind Outfitters</a>
    <form role="search" action="/search">
      <input type="search" name="q" aria-label="Search products" placeholder="Search 12,000 products">
      <button>Search</button>
    </form>
    <nav aria-label="Account" class="util">
      <ul>
        <li><a href="/info/store-finder">Stores</a></li>
        <li><a href="/info/help-centre">Help</a></li>
        <li><a href="/info/track-my-order">Track order</a></li>
        <li><a href="/account/sign-in">Sign in</a></li>
        <li><a href="/account/wishlist">Wishlist (3)</a></li>
        <li><a href="/tasks/cart.html">Basket (3 items)</a></li>
      </ul>
    </nav>
  </div>
  <nav aria-label="Departments" class="depts">
    <ul>
      ${links(DEPARTMENTS, '/dept/')}
    </ul>
  </nav>
  <nav aria-label="Top picks" class="picks">
    <ul>
      ${links(TOP_PICKS, '/c/')}
    </ul>
  </nav>
</header>
<nav aria-label="Breadcrumb" class="crumbs">
  <ol>
        ${crumbLinks}
  </ol>
</nav>
<div class="page">
  <main id="content">
${main}
  </main>
${aside}
</div>
<footer>
  <div class="cols">
    ${cols}
    <section aria-labelledby="news-h">
      <h2 id="news-h">Get 10% off your first order</h2>
      <p>Trail reports, new gear and member offers, twice a month.</p>
      <form onsubmit="event.preventDefault()">
        <label>Email address <input type="email" name="news"></label>
        <button>Subscribe</button>
      </form>
      <ul class="social">
        ${SOCIAL.map((s) => `<li><a href="/info/social-${slug(s)}" aria-label="Northwind on ${s}">${s}</a></li>`).join('\n        ')}
      </ul>
    </section>
  </div>
  <ul class="legal">
    ${links(LEGAL, '/info/')}
  </ul>
  <p>&copy; 2026 Northwind Outfitters Ltd. Registered in England and Wales, company no. 04417781. 1 Quay Street, Bristol BS1 4DJ.</p>
</footer>
${script ? `<script>\n${script}\n</script>\n` : ''}</body>
</html>
`;
}

// ---- deterministic product data
let seed = 20260515;
function rnd() { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; }
const BRANDS = ['Northwind', 'Fjellvik', 'Ridgeline', 'Alpenglow', 'Cairn & Co', 'Summit Lab', 'Boreal', 'Kestrel', 'Tarn', 'Scree'];
const KINDS = ['Daypack', 'Hiking Backpack', 'Trekking Pack', 'Travel Pack', 'Hydration Pack', 'Roll-top Bag', 'Duffel', 'Hip Pack', 'Climbing Pack', 'Camera Pack'];
const MODELS = ['Trailblazer', 'Aether', 'Volta', 'Granite', 'Nimbus', 'Osprey Ridge', 'Talus', 'Cirrus', 'Moraine', 'Tundra', 'Sierra', 'Kite', 'Ember', 'Atlas', 'Corrie', 'Dune'];
const SIZES = [12, 18, 22, 25, 28, 30, 35, 40, 45, 50, 55, 65];
const COLOURS = ['Black', 'Forest', 'Slate', 'Ochre', 'Navy', 'Rust', 'Glacier'];
function products(n) {
  const out = [];
  const seen = new Set();
  while (out.length < n) {
    const name = `${MODELS[Math.floor(rnd() * MODELS.length)]} ${SIZES[Math.floor(rnd() * SIZES.length)]}L ${KINDS[Math.floor(rnd() * KINDS.length)]}`;
    if (seen.has(name)) continue;
    seen.add(name);
    const brand = BRANDS[Math.floor(rnd() * BRANDS.length)];
    const price = 25 + Math.floor(rnd() * 240) + (rnd() < 0.5 ? 0.99 : 0.0);
    const sale = rnd() < 0.2;
    const rating = (3.4 + rnd() * 1.6).toFixed(1);
    const reviews = Math.floor(rnd() * 900);
    const colours = 1 + Math.floor(rnd() * 4);
    out.push({ name, brand, price, sale, rating, reviews, colours });
  }
  return out;
}
const money = (x) => `$${x.toFixed(2)}`;

// ---- 1. sign-up form with validation
function signup() {
  const countries = ['United States', 'United Kingdom', 'Canada', 'Ireland', 'Australia', 'New Zealand',
    'France', 'Germany', 'Spain', 'Italy', 'Netherlands', 'Belgium', 'Sweden', 'Norway', 'Denmark',
    'Finland', 'Portugal', 'Austria', 'Switzerland', 'Japan'];
  const main = `    <h1>Create your Northwind account</h1>
    <p>Members get 10% off full-price gear, free returns and early access to the sale. Already a member? <a href="/account/sign-in">Sign in</a>.</p>
    <div id="summary" role="alert" hidden></div>
    <form id="signup" novalidate action="signup-done.html">
      <fieldset>
        <legend>Your details</legend>
        <label for="first">First name</label>
        <input id="first" name="first" autocomplete="given-name" required aria-describedby="first-error">
        <p class="error" id="first-error"></p>
        <label for="last">Last name</label>
        <input id="last" name="last" autocomplete="family-name" required aria-describedby="last-error">
        <p class="error" id="last-error"></p>
        <label for="email">Email address</label>
        <input id="email" name="email" type="email" autocomplete="email" required aria-describedby="email-error">
        <p class="error" id="email-error"></p>
        <label for="country">Country or region</label>
        <select id="country" name="country">
          ${countries.map((c) => `<option${c === 'United States' ? ' selected' : ''}>${c}</option>`).join('\n          ')}
        </select>
        <label for="phone">Mobile number (optional)</label>
        <input id="phone" name="phone" type="tel" autocomplete="tel">
      </fieldset>
      <fieldset>
        <legend>Choose a password</legend>
        <p id="pw-hint">At least 12 characters, including a number.</p>
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required aria-describedby="pw-hint password-error">
        <p class="error" id="password-error"></p>
        <label for="confirm">Confirm password</label>
        <input id="confirm" name="confirm" type="password" autocomplete="new-password" required aria-describedby="confirm-error">
        <p class="error" id="confirm-error"></p>
      </fieldset>
      <fieldset>
        <legend>Keeping in touch</legend>
        <label><input type="checkbox" name="offers"> Email me offers and trail reports</label>
        <label><input type="checkbox" name="sms"> Text me about my orders</label>
        <label><input type="checkbox" id="terms" name="terms" aria-describedby="terms-error"> I agree to the <a href="/info/terms-and-conditions">terms and conditions</a></label>
        <p class="error" id="terms-error"></p>
      </fieldset>
      <button type="submit">Create account</button>
    </form>`;
  const aside = `  <aside aria-labelledby="why-h">
    <h2 id="why-h">Why join?</h2>
    <ul>
      <li>10% off full-price gear, every day</li>
      <li>Free returns within 60 days</li>
      <li>Early access to the summer and winter sales</li>
      <li>Free repairs on Northwind-brand gear</li>
      <li>Birthday voucher worth $10</li>
    </ul>
    <h2>Questions?</h2>
    <ul>
      <li><a href="/info/member-rewards">How member rewards work</a></li>
      <li><a href="/info/privacy-notice">How we use your data</a></li>
      <li><a href="/info/contact-us">Contact us</a></li>
    </ul>
  </aside>`;
  const script = `(function () {
  var form = document.getElementById('signup');
  var summary = document.getElementById('summary');
  function setError(id, msg) {
    var el = document.getElementById(id);
    document.getElementById(id + '-error').textContent = msg;
    if (msg) el.setAttribute('aria-invalid', 'true'); else el.removeAttribute('aria-invalid');
    return msg ? [msg] : [];
  }
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    var v = function (id) { return document.getElementById(id).value.trim(); };
    var errs = [];
    errs = errs.concat(setError('first', v('first') ? '' : 'Enter your first name'));
    errs = errs.concat(setError('last', v('last') ? '' : 'Enter your last name'));
    errs = errs.concat(setError('email', /^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$/i.test(v('email')) ? '' : 'Enter an email address like name@example.com'));
    var pw = document.getElementById('password').value;
    errs = errs.concat(setError('password', pw.length >= 12 && /[0-9]/.test(pw) ? '' : 'Password must be at least 12 characters and include a number'));
    errs = errs.concat(setError('confirm', document.getElementById('confirm').value === pw ? '' : 'Passwords do not match'));
    errs = errs.concat(setError('terms', document.getElementById('terms').checked ? '' : 'You must agree to the terms to create an account'));
    if (errs.length) {
      summary.hidden = false;
      summary.textContent = 'There ' + (errs.length === 1 ? 'is a problem' : 'are ' + errs.length + ' problems') + ': ' + errs.join('; ');
      return;
    }
    // the server's answer: a redirect to the welcome page
    setTimeout(function () {
      location.href = 'signup-done.html?first=' + encodeURIComponent(v('first')) + '&email=' + encodeURIComponent(v('email'));
    }, 150);
  });
})();`;
  return shell({ title: 'Create an account', crumbs: ['Home', 'Account', 'Create an account'], main, aside, script });
}

function signupDone() {
  const main = `    <h1 id="welcome">Welcome to Northwind</h1>
    <p id="done">Your account is ready.</p>
    <h2>What next?</h2>
    <ul>
      <li><a href="/account/profile">Complete your profile</a> to get gear recommendations</li>
      <li><a href="/info/northwind-app">Get the Northwind app</a> for your member card</li>
      <li><a href="/dept/new-arrivals">Shop new arrivals</a></li>
    </ul>`;
  const script = `(function () {
  var q = new URLSearchParams(location.search);
  var first = q.get('first') || 'friend';
  var email = q.get('email') || '';
  var n = 0; for (var i = 0; i < email.length; i++) n = (n * 31 + email.charCodeAt(i)) % 900000;
  document.getElementById('welcome').textContent = 'Welcome to Northwind, ' + first + '!';
  document.getElementById('done').textContent = 'Your account ' + email + ' is ready. Your member number is NW-' + (100000 + n) + '.';
})();`;
  return shell({ title: 'Welcome', crumbs: ['Home', 'Account', 'Welcome'], main, script });
}

// ---- 2. basket with a coupon toast
function cart() {
  const items = [
    ['Ridgeline Insulated Jacket', 'Forest, size M', 1, 149.0],
    ['Trailblazer 45L Hiking Backpack', 'Slate', 1, 119.0],
    ['Merino Hiking Socks (3 pairs)', 'Charcoal, size L', 2, 21.0],
  ];
  const subtotal = items.reduce((s, it) => s + it[2] * it[3], 0);
  const rows = items.map(([name, variant, qty, price], i) => `        <li class="line">
          <img src="/img/p${i}.jpg" alt="">
          <h2><a href="/p/${slug(name)}">${esc(name)}</a></h2>
          <p>${esc(variant)}</p>
          <label>Quantity <input type="number" min="1" max="10" value="${qty}" name="qty${i}"></label>
          <p class="price">${money(qty * price)}</p>
          <button type="button">Remove</button>
          <button type="button">Save for later</button>
        </li>`).join('\n');
  const main = `    <h1>Your basket</h1>
    <ul class="lines">
${rows}
    </ul>
    <section aria-labelledby="sum-h">
      <h2 id="sum-h">Order summary</h2>
      <dl>
        <dt>Subtotal</dt><dd id="subtotal">${money(subtotal)}</dd>
        <dt>Delivery</dt><dd>Free</dd>
        <dt id="disc-t" hidden>Discount</dt><dd id="disc" hidden></dd>
        <dt>Total</dt><dd id="total">${money(subtotal)}</dd>
      </dl>
      <form id="promo">
        <label for="code">Promo code</label>
        <input id="code" name="code" autocomplete="off">
        <button type="submit" id="apply">Apply</button>
      </form>
      <button type="button">Checkout securely</button>
      <p>Or pay with <a href="/pay/paypal">PayPal</a> or <a href="/pay/klarna">Klarna</a>.</p>
    </section>`;
  const recs = products(6).map((p) => `      <li><a href="/p/${slug(p.name)}">${esc(p.name)}</a> <span class="price">${money(p.price)}</span> <button type="button">Add to basket</button></li>`).join('\n');
  const aside = `  <aside aria-labelledby="recs-h">
    <h2 id="recs-h">Customers also bought</h2>
    <ul>
${recs}
    </ul>
  </aside>
  <div id="toasts"></div>`;
  const script = `(function () {
  var subtotal = ${subtotal.toFixed(2)};
  var money = function (x) { return '$' + x.toFixed(2); };
  document.getElementById('promo').addEventListener('submit', function (e) {
    e.preventDefault();
    var code = document.getElementById('code').value.trim().toUpperCase();
    var btn = document.getElementById('apply');
    btn.disabled = true; btn.textContent = 'Applying...';
    // the coupon service answers after 200 ms; the toast shows for 700 ms
    setTimeout(function () {
      btn.disabled = false; btn.textContent = 'Apply';
      var msg;
      if (code === 'SPRING20') {
        var off = Math.round(subtotal * 20) / 100;
        document.getElementById('disc-t').hidden = false;
        var d = document.getElementById('disc'); d.hidden = false; d.textContent = '-' + money(off);
        document.getElementById('total').textContent = money(subtotal - off);
        msg = 'Code SPRING20 applied: you save ' + money(off) + ' (20% off)';
      } else {
        msg = 'Code ' + code + ' is not valid';
      }
      var t = document.createElement('div');
      t.className = 'toast'; t.setAttribute('role', 'status'); t.textContent = msg;
      document.getElementById('toasts').appendChild(t);
      setTimeout(function () { t.remove(); }, 700);
    }, 200);
  });
})();`;
  return shell({ title: 'Basket', crumbs: ['Home', 'Basket'], main, aside, script });
}

// ---- 3. a long catalogue
function catalogue() {
  seed = 4242;
  const list = products(180);
  const cards = list.map((p) => {
    const price = p.sale
      ? `<p class="price"><span class="was">Was ${money(p.price + 20)}</span> Now ${money(p.price)}</p>`
      : `<p class="price">${money(p.price)}</p>`;
    return `      <li class="card">
        <img src="/img/${slug(p.name)}.jpg" alt="${esc(p.name)}">
        <p class="brand">${esc(p.brand)}</p>
        <h2><a href="/p/${slug(p.name)}">${esc(p.name)}</a></h2>
        <p>${p.rating} out of 5 stars (${p.reviews} reviews)</p>
        ${price}
        <p>${p.colours} colour${p.colours > 1 ? 's' : ''}</p>
        <button type="button">Add to basket</button>
      </li>`;
  }).join('\n');
  const main = `    <h1>Backpacks and bags</h1>
    <p>${list.length} products. Daypacks, trekking packs and travel bags from the brands we trust on the trail.</p>
    <label for="sort">Sort by</label>
    <select id="sort"><option>Recommended</option><option>Price: low to high</option><option>Price: high to low</option><option>Top rated</option><option>Newest</option></select>
    <ul class="cards">
${cards}
    </ul>
    <nav aria-label="Pages"><p>Showing all ${list.length} products.</p></nav>`;
  const facet = (name, values) => `    <fieldset>
      <legend>${name}</legend>
      ${values.map((v) => `<label><input type="checkbox" name="${slug(name)}"> ${esc(v)}</label>`).join('\n      ')}
    </fieldset>`;
  const aside = `  <aside aria-label="Filters">
    <h2>Filter</h2>
${facet('Brand', BRANDS)}
${facet('Capacity', ['Up to 20 litres', '20 to 35 litres', '35 to 50 litres', 'Over 50 litres'])}
${facet('Price', ['Under $50', '$50 to $100', '$100 to $200', 'Over $200'])}
${facet('Colour', COLOURS)}
${facet('Rating', ['4 stars and up', '3 stars and up'])}
    <button type="button">Clear all filters</button>
  </aside>`;
  return { html: shell({ title: 'Backpacks and bags', crumbs: ['Home', 'Hiking', 'Backpacks and bags'], main, aside }), list };
}

// ---- 4. hotel booking with a native date input and a custom calendar
function booking() {
  const main = `    <h1>Harbour View Hotel, Lisbon</h1>
    <p>4-star hotel on the riverfront, 5 minutes from Cais do Sodré station. Breakfast included.</p>
    <form id="book" onsubmit="event.preventDefault()">
      <fieldset>
        <legend>Room</legend>
        <label><input type="radio" name="room" checked> Standard double, $189 a night</label>
        <label><input type="radio" name="room"> River view double, $214 a night</label>
        <label><input type="radio" name="room"> Junior suite, $298 a night</label>
      </fieldset>
      <fieldset>
        <legend>Dates</legend>
        <label for="checkin">Check-in</label>
        <input type="date" id="checkin" min="2026-01-01" max="2027-12-31">
        <label for="checkout">Check-out</label>
        <input id="checkout" readonly placeholder="Choose a date">
        <button type="button" id="pick">Choose check-out date</button>
      </fieldset>
      <label for="guests">Guests</label>
      <select id="guests"><option>1 adult</option><option selected>2 adults</option><option>2 adults, 1 child</option><option>3 adults</option></select>
      <p id="stay" role="status"></p>
      <button type="submit">Reserve</button>
    </form>
    <dialog id="cal" aria-labelledby="cal-h">
      <h2 id="cal-h"></h2>
      <button type="button" id="prev">Previous month</button>
      <button type="button" id="next">Next month</button>
      <table role="grid" aria-labelledby="cal-h"><thead><tr><th>Mo</th><th>Tu</th><th>We</th><th>Th</th><th>Fr</th><th>Sa</th><th>Su</th></tr></thead><tbody id="days"></tbody></table>
      <button type="button" id="close">Close</button>
    </dialog>
    <section aria-labelledby="about-h">
      <h2 id="about-h">About the hotel</h2>
      <ul>
        <li>Free wifi</li><li>Rooftop bar</li><li>24-hour front desk</li><li>Airport shuttle ($25)</li><li>Pets allowed on request</li>
      </ul>
      <h2>Guest reviews</h2>
      <p>8.9 Excellent, 1,204 reviews</p>
      <blockquote><p>"Great view of the river and a short walk to everything." Marta, Spain</p></blockquote>
      <blockquote><p>"Spotless rooms and very helpful staff." Daniel, Canada</p></blockquote>
    </section>`;
  const aside = `  <aside aria-labelledby="near-h">
    <h2 id="near-h">Other hotels nearby</h2>
    <ul>
      <li><a href="/hotels/alfama-rooms">Alfama Rooms</a> from $129</li>
      <li><a href="/hotels/baixa-house">Baixa House</a> from $176</li>
      <li><a href="/hotels/chiado-loft">Chiado Loft</a> from $205</li>
      <li><a href="/hotels/belem-garden">Belém Garden Hotel</a> from $158</li>
    </ul>
  </aside>`;
  const script = `(function () {
  var DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  var MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  var checkin = document.getElementById('checkin');
  var checkout = document.getElementById('checkout');
  var cal = document.getElementById('cal');
  var shown = new Date(Date.UTC(2026, 5, 1));
  var out = null;
  var long = function (d) { return DAYS[d.getUTCDay()] + ' ' + d.getUTCDate() + ' ' + MONTHS[d.getUTCMonth()] + ' ' + d.getUTCFullYear(); };
  var short = function (d) { return DAYS[d.getUTCDay()].slice(0, 3) + ' ' + d.getUTCDate() + ' ' + MONTHS[d.getUTCMonth()].slice(0, 3) + ' ' + d.getUTCFullYear(); };
  function inDate() { return checkin.value ? new Date(checkin.value + 'T00:00:00Z') : null; }
  function render() {
    document.getElementById('cal-h').textContent = MONTHS[shown.getUTCMonth()] + ' ' + shown.getUTCFullYear();
    var body = document.getElementById('days'); body.textContent = '';
    var first = (shown.getUTCDay() + 6) % 7;
    var n = new Date(Date.UTC(shown.getUTCFullYear(), shown.getUTCMonth() + 1, 0)).getUTCDate();
    var tr = document.createElement('tr');
    for (var i = 0; i < first; i++) tr.appendChild(document.createElement('td'));
    var cin = inDate();
    for (var day = 1; day <= n; day++) {
      var d = new Date(Date.UTC(shown.getUTCFullYear(), shown.getUTCMonth(), day));
      var td = document.createElement('td');
      var b = document.createElement('button');
      b.type = 'button'; b.textContent = day; b.setAttribute('aria-label', long(d));
      if (cin && d <= cin) b.disabled = true;
      b.addEventListener('click', (function (d) { return function () { out = d; checkout.value = short(d); cal.close(); update(); }; })(d));
      td.appendChild(b); tr.appendChild(td);
      if (tr.children.length === 7) { body.appendChild(tr); tr = document.createElement('tr'); }
    }
    if (tr.children.length) body.appendChild(tr);
  }
  function update() {
    var cin = inDate();
    var s = document.getElementById('stay');
    if (!cin) { s.textContent = ''; return; }
    if (!out || out <= cin) { s.textContent = 'Check-in ' + short(cin) + '. Choose a check-out date.'; return; }
    var nights = Math.round((out - cin) / 86400000);
    s.textContent = 'Your stay: ' + short(cin) + ' to ' + short(out) + ', ' + nights + ' night' + (nights > 1 ? 's' : '') + ', $' + (189 * nights) + ' in total';
  }
  checkin.addEventListener('change', function () {
    var cin = inDate();
    if (cin) shown = new Date(Date.UTC(cin.getUTCFullYear(), cin.getUTCMonth(), 1));
    update();
  });
  document.getElementById('pick').addEventListener('click', function () { render(); cal.showModal(); });
  document.getElementById('prev').addEventListener('click', function () { shown = new Date(Date.UTC(shown.getUTCFullYear(), shown.getUTCMonth() - 1, 1)); render(); });
  document.getElementById('next').addEventListener('click', function () { shown = new Date(Date.UTC(shown.getUTCFullYear(), shown.getUTCMonth() + 1, 1)); render(); });
  document.getElementById('close').addEventListener('click', function () { cal.close(); });
})();`;
  return shell({ title: 'Harbour View Hotel, Lisbon', crumbs: ['Home', 'Travel', 'Hotels in Lisbon', 'Harbour View Hotel'], main, aside, script });
}

// ---- 5. a product page whose size guide opens in a new tab
function product() {
  const main = `    <h1>Ridgeline Insulated Jacket</h1>
    <p>Brand: Ridgeline &middot; 4.7 out of 5 stars (386 reviews)</p>
    <p class="price">$149.00</p>
    <p>Warm, packable synthetic insulation that keeps working when wet. Recycled ripstop shell with a DWR finish, two zipped hand pockets and an inner chest pocket.</p>
    <form onsubmit="event.preventDefault()">
      <fieldset>
        <legend>Colour</legend>
        <label><input type="radio" name="colour" checked> Forest</label>
        <label><input type="radio" name="colour"> Black</label>
        <label><input type="radio" name="colour"> Rust</label>
      </fieldset>
      <fieldset>
        <legend>Size</legend>
        ${['XS', 'S', 'M', 'L', 'XL', 'XXL'].map((s) => `<label><input type="radio" name="size"> ${s}</label>`).join('\n        ')}
      </fieldset>
      <p><a href="size-guide.html" target="_blank">Size guide (opens in a new tab)</a></p>
      <label for="qty">Quantity</label>
      <input id="qty" type="number" min="1" max="10" value="1">
      <button type="submit">Add to basket</button>
      <button type="button">Add to wishlist</button>
    </form>
    <section aria-labelledby="details-h">
      <h2 id="details-h">Details</h2>
      <ul>
        <li>Weight: 480 g (size M)</li><li>Insulation: 100 g/m² recycled polyester</li><li>Fit: regular, room for a fleece underneath</li><li>Packs into its own pocket</li><li>Machine washable at 30°C</li>
      </ul>
      <h2>Delivery and returns</h2>
      <p>Free delivery on orders over $50. Free returns within 60 days for members.</p>
      <h2>Reviews</h2>
      <article><h3>Warm and light</h3><p>Used it on a winter hike in the Peak District, stayed warm at -3°C. Runs slightly large.</p></article>
      <article><h3>Good value</h3><p>Half the price of the big brands and just as warm.</p></article>
      <article><h3>Sleeves a bit short</h3><p>Lovely jacket but I have long arms; would have liked 2 cm more.</p></article>
    </section>`;
  const aside = `  <aside aria-labelledby="also-h">
    <h2 id="also-h">You may also like</h2>
    <ul>
      <li><a href="/p/ridgeline-fleece">Ridgeline Grid Fleece</a> $69.00</li>
      <li><a href="/p/cairn-down-vest">Cairn &amp; Co Down Vest</a> $99.00</li>
      <li><a href="/p/boreal-shell">Boreal 3L Shell Jacket</a> $229.00</li>
      <li><a href="/p/tarn-beanie">Tarn Merino Beanie</a> $24.00</li>
    </ul>
  </aside>`;
  return shell({ title: 'Ridgeline Insulated Jacket', crumbs: ['Home', 'Men', 'Jackets', 'Ridgeline Insulated Jacket'], main, aside });
}

function sizeGuide() {
  const rows = [['XS', '84-89', '71-76'], ['S', '89-96', '76-81'], ['M', '96-101', '81-86'], ['L', '101-109', '86-94'], ['XL', '109-117', '94-101'], ['XXL', '117-124', '101-109']];
  const main = `    <h1>Size guide: Ridgeline jackets</h1>
    <p>Measure over a base layer, under the arms around the fullest part of the chest.</p>
    <table>
      <caption>Men's jacket sizes (cm)</caption>
      <thead><tr><th>Size</th><th>Chest</th><th>Waist</th></tr></thead>
      <tbody>
        ${rows.map((r) => `<tr><th>${r[0]}</th><td>${r[1]}</td><td>${r[2]}</td></tr>`).join('\n        ')}
      </tbody>
    </table>
    <p>Between sizes? Choose the larger one if you layer up.</p>`;
  return shell({ title: 'Size guide', crumbs: ['Home', 'Help', 'Size guide'], main });
}

// ---- 6. long pages: a target far below the fold, under a sticky header (as many shops have)
const STICKY = `
  header { position: sticky; top: 0; z-index: 5; background: #fff; }`;
const card = (p) => `      <li class="card">
        <img src="/img/${slug(p.name)}.jpg" alt="${esc(p.name)}">
        <p class="brand">${esc(p.brand)}</p>
        <h2><a href="/p/${slug(p.name)}">${esc(p.name)}</a></h2>
        <p>${p.rating} out of 5 stars (${p.reviews} reviews)</p>
        <p class="price">${money(p.price)}</p>
        <button type="button">Add to basket</button>
      </li>`;

// 6a. bestsellers: 120 products, then the returns policy button that opens an alert
function bestsellers() {
  seed = 777;
  const list = products(120);
  const main = `    <h1>Bestsellers</h1>
    <p>Our 120 most-bought backpacks and bags this season, updated every Monday.</p>
    <ul class="cards">
${list.map(card).join('\n')}
    </ul>
    <section id="returns" aria-labelledby="returns-h">
      <h2 id="returns-h">Delivery and returns</h2>
      <p>Free standard delivery on orders over $50. Express delivery $6.95, next day $12.95.</p>
      <button type="button" onclick="alert('Returns are accepted within 30 days of delivery.')">Returns policy</button>
    </section>`;
  return shell({ title: 'Bestsellers', crumbs: ['Home', 'Bestsellers'], main, css: STICKY });
}

// 6b. tents: 100 of 137 products shown, "Load more tents" adds the next 20 (the product
// service answers after 250 ms)
function tents() {
  seed = 9191;
  const TENT_KINDS = ['Backpacking Tent', 'Dome Tent', 'Tunnel Tent', 'Family Tent', 'Ultralight Tent', 'Pop-up Tent', 'Bivvy Shelter', 'Tarp Shelter'];
  const TENT_MODELS = ['Corrie', 'Skye', 'Harris', 'Mull', 'Arran', 'Lewis', 'Islay', 'Jura', 'Tiree', 'Coll', 'Eigg', 'Rum', 'Barra', 'Uist', 'Staffa', 'Iona', 'Lismore', 'Kerrera'];
  const out = [];
  const seen = new Set();
  while (out.length < 137) {
    const name = `${TENT_MODELS[Math.floor(rnd() * TENT_MODELS.length)]} ${1 + Math.floor(rnd() * 6)}-person ${TENT_KINDS[Math.floor(rnd() * TENT_KINDS.length)]}`;
    if (seen.has(name)) continue;
    seen.add(name);
    out.push({ name, brand: BRANDS[Math.floor(rnd() * BRANDS.length)], price: 60 + Math.floor(rnd() * 500) + 0.99,
      rating: (3.4 + rnd() * 1.6).toFixed(1), reviews: Math.floor(rnd() * 600) });
  }
  const shown = 100;
  const main = `    <h1>Tents</h1>
    <p>Backpacking, family and ultralight tents from the brands we trust in the hills.</p>
    <section id="results" aria-label="Results">
      <ul class="cards" id="tent-list">
${out.slice(0, shown).map(card).join('\n')}
      </ul>
      <p id="tent-count" aria-live="polite">Showing ${shown} of ${out.length} tents</p>
      <button type="button" id="more">Load more tents</button>
    </section>`;
  const script = `(function () {
  var MORE = ${JSON.stringify(out.slice(shown).map((p) => [p.name, p.brand, p.rating, p.reviews, money(p.price), slug(p.name)]))};
  var list = document.getElementById('tent-list');
  var count = document.getElementById('tent-count');
  var btn = document.getElementById('more');
  var shown = ${shown}, total = ${out.length};
  btn.addEventListener('click', function () {
    btn.disabled = true; btn.textContent = 'Loading...';
    setTimeout(function () {
      MORE.splice(0, 20).forEach(function (p) {
        var li = document.createElement('li'); li.className = 'card';
        li.innerHTML = '<img src="/img/' + p[5] + '.jpg" alt=""><p class="brand"></p><h2><a href="/p/' + p[5] + '"></a></h2><p>' + p[2] + ' out of 5 stars (' + p[3] + ' reviews)</p><p class="price">' + p[4] + '</p><button type="button">Add to basket</button>';
        li.querySelector('img').alt = p[0];
        li.querySelector('.brand').textContent = p[1];
        li.querySelector('a').textContent = p[0];
        list.appendChild(li);
        shown += 1;
      });
      count.textContent = 'Showing ' + shown + ' of ' + total + ' tents';
      btn.textContent = 'Load more tents';
      btn.disabled = false;
      if (!MORE.length) btn.hidden = true;
    }, 250);
  });
})();`;
  return { html: shell({ title: 'Tents', crumbs: ['Home', 'Camping', 'Tents'], main, script, css: STICKY }), list: out };
}

fs.mkdirSync(OUT, { recursive: true });
const cat = catalogue();
const files = {
  'signup.html': signup(),
  'signup-done.html': signupDone(),
  'cart.html': cart(),
  'catalogue.html': cat.html,
  'booking.html': booking(),
  'product.html': product(),
  'size-guide.html': sizeGuide(),
  'bestsellers.html': bestsellers(),
};
const tentPage = tents();
files['tents.html'] = tentPage.html;
for (const p of PATTERNS) files[p.file] = docsPage(p);
for (const [name, html] of Object.entries(files)) fs.writeFileSync(path.join(OUT, name), html);
process.stderr.write(`wrote ${Object.keys(files).length} pages to ${path.relative(process.cwd(), OUT)} (catalogue item 130: ${cat.list[129].name}, ${money(cat.list[129].price)}; tent 101: ${tentPage.list[100].name})\n`);
