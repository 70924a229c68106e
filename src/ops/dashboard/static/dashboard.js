// The daemon's dashboard: polls /api/state once a second, draws with uPlot, sends controls with the bearer token.
// Plain browser JavaScript, no build step. Every value from the daemon is written with textContent, never as HTML.
'use strict';
(function () {
  const $ = (sel, root = document) => root.querySelector(sel);
  const cards = new Map(); // strategy id -> { el, price, pnl }
  const tokenInput = $('#token');
  tokenInput.value = sessionStorage.getItem('bot-token') || '';
  tokenInput.addEventListener('change', () => sessionStorage.setItem('bot-token', tokenInput.value));

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'on') for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
      else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }

  function say(text, bad) {
    const m = $('#message');
    m.textContent = text;
    m.style.color = bad ? '#c0392b' : '#555';
  }

  async function control(path, body) {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokenInput.value}` },
      body: JSON.stringify(body || {}),
    });
    const answer = await res.json().catch(() => ({}));
    say(`${res.status}: ${answer.message || answer.error || ''}`, !res.ok);
    return res.ok;
  }

  $('#stop-daemon').addEventListener('click', () => {
    if (confirm('Stop the daemon? Strategies stop and open orders are cancelled as configured.')) void control('/api/stop');
  });

  // axes sized to their labels, whole prices, one-line times (chart-axes.js); a right-hand axis for a second scale
  function chart(container, title, series, right) {
    const A = window.chartAxes;
    const axes = [
      { values: A.timeValues(container), space: 70 },
      { ...(series[0].scale ? { scale: series[0].scale } : {}), values: A.numberValues(container, 'yLabels'), size: A.sizeToLabels(container, 'yLabelPx') },
    ];
    if (right) axes.push({ scale: right, side: 1, grid: { show: false }, values: A.numberValues(container, 'y2Labels'), size: A.sizeToLabels(container, 'y2LabelPx') });
    const opts = {
      title,
      width: Math.min(640, Math.max(320, window.innerWidth / 2 - 60)),
      height: 220,
      series: [{}, ...series],
      axes,
      // room on the right for the last time label when no axis is there
      padding: [null, right ? null : 32, null, null],
      // the legend shows a dashed series as dashed (uPlot draws every marker solid)
      legend: { markers: { dash: (u, i) => (u.series[i].dash ? 'dashed' : 'solid') } },
      scales: { x: { time: true } },
    };
    return new uPlot(opts, [[], ...series.map(() => [])], container);
  }

  function card(s) {
    let c = cards.get(s.id);
    if (c) return c;
    const figures = el('div', { class: 'figures' });
    const controls = el(
      'div',
      { class: 'controls' },
      el('button', { type: 'button', 'data-action': 'pause', on: { click: () => control(`/api/strategies/${encodeURIComponent(s.id)}/pause`, { cancelOrders: false }) } }, 'Pause (keep orders)'),
      el('button', { type: 'button', 'data-action': 'pause-cancel', on: { click: () => control(`/api/strategies/${encodeURIComponent(s.id)}/pause`, { cancelOrders: true }) } }, 'Pause and cancel orders'),
      el('button', { type: 'button', 'data-action': 'resume', on: { click: () => control(`/api/strategies/${encodeURIComponent(s.id)}/resume`) } }, 'Resume'),
      el('button', { type: 'button', 'data-action': 'cancel-orders', on: { click: () => control(`/api/strategies/${encodeURIComponent(s.id)}/cancel-orders`) } }, 'Cancel all orders'),
    );
    const priceBox = el('div', { class: 'chart', 'data-chart': 'price', 'data-points': '0' });
    const pnlBox = el('div', { class: 'chart', 'data-chart': 'pnl', 'data-points': '0' });
    const orders = el('table', { class: 'orders' }, el('thead', {}, el('tr', {}, el('th', {}, 'open order'), el('th', {}, 'side'), el('th', {}, 'price'), el('th', {}, 'left'), el('th', {}, 'state'))), el('tbody'));
    const root = el('section', { class: 'strategy', 'data-strategy': s.id }, el('h2', {}, `${s.id} on ${s.market}`), figures, controls, el('div', { class: 'charts' }, priceBox, pnlBox), orders);
    $('#strategies').append(root);
    c = {
      root,
      figures,
      orders: $('tbody', orders),
      priceBox,
      pnlBox,
      price: chart(priceBox, `${s.market}: book and own quotes`, [
        { label: 'best bid', stroke: '#2a8a3e' },
        { label: 'best ask', stroke: '#c0392b' },
        { label: 'own bid', stroke: '#1f6feb', dash: [4, 4] },
        { label: 'own ask', stroke: '#b9770e', dash: [4, 4] },
      ]),
      // net and realised − fees are equal whenever the strategy is flat: a thick solid line under a thin dashed one,
      // so both stay visible where they coincide
      pnl: chart(
        pnlBox,
        `${s.id}: PnL and inventory`,
        [
          { label: 'net PnL', stroke: 'rgba(31,111,235,0.55)', width: 4, scale: 'pnl' },
          { label: 'realised − fees', stroke: '#2a8a3e', width: 1.5, dash: [6, 4], scale: 'pnl' },
          { label: 'inventory', stroke: '#999', width: 1, scale: 'inv', paths: uPlot.paths.stepped({ align: 1 }) },
        ],
        'inv',
      ),
    };
    cards.set(s.id, c);
    return c;
  }

  function figure(name, value, testid) {
    return el('span', {}, `${name} `, el('b', { 'data-testid': testid }, String(value)));
  }

  // The account-wide limits (risk.account): equity, peak, drawdown and the day's loss against their limits, and the
  // halt with its reason, which holds every strategy until an operator resumes one.
  function renderAccount(a) {
    const box = $('#account');
    box.hidden = !a;
    if (!a) return;
    const of = (v, limit) => `${v ?? '-'}${limit ? ` / ${limit}` : ''}`;
    const parts = [
      el('b', {}, `account (${a.money})`),
      ` equity ${a.equity ?? '-'} · peak ${a.peak ?? '-'} · drawdown ${of(a.drawdown, a.limits.maxDrawdown)} · day loss ${of(a.dailyLoss, a.limits.maxDailyLoss)} · gross ${of(a.grossNotional, a.limits.maxGrossNotional)} `,
    ];
    if (a.halt) {
      const next = a.halt.restored
        ? 'Strategies start paused; resuming one re-arms the limits from the equity now.'
        : 'Every strategy is halted; after a restart they start paused, and resuming one re-arms the limits.';
      const why = `HALTED (${a.halt.limit}${a.halt.restored ? ', since an earlier run' : ''}): ${a.halt.reason}. ${next}`;
      parts.push(el('span', { class: 'badge bad', 'data-testid': 'account-halt' }, why));
    }
    box.className = a.halt ? 'halted' : '';
    box.replaceChildren(...parts);
  }

  function render(state) {
    renderAccount(state.account);
    const ready = $('#ready');
    ready.textContent = state.ready.ready ? 'ready' : 'not ready';
    ready.className = `badge ${state.ready.ready ? 'ok' : 'bad'}`;
    ready.title = Object.entries(state.ready.checks).map(([k, v]) => `${k}: ${v.why}`).join('\n');
    $('#summary').textContent = `${state.venue} · queue ${state.queueDepth} · unknown ${state.unknownOrders} · controls ${state.controls ? 'on (token)' : 'off (no http.token)'}`;
    for (const s of state.strategies) {
      const c = card(s);
      const m = state.markets.find((x) => x.market === s.market) || {};
      c.figures.replaceChildren(
        figure('mid', m.mid ?? '-', 'mid'),
        figure('spread', m.spread ?? '-', 'spread'),
        figure('submitted', s.submitted, 'submitted'),
        figure('fills', s.fills, 'fills'),
        figure('open orders', s.liveOrders, 'open-orders'),
        figure('inventory', s.inventory, 'inventory'),
        figure('realised − fees', s.realisedNet, 'realised'),
        figure('unrealised', s.unrealised, 'unrealised'),
        figure('net PnL', s.net, 'net'),
        el('span', { class: s.halted ? 'halted' : s.paused ? 'paused' : '', 'data-testid': 'state' }, s.halted ? 'HALTED' : s.paused ? 'PAUSED' : 'running'),
      );
      c.orders.replaceChildren(
        ...(m.quotes || []).filter((q) => q.strategyId === s.id).map((q) => el('tr', {}, el('td', {}, q.clientOrderId || ''), el('td', {}, q.side), el('td', {}, q.price), el('td', {}, q.left), el('td', {}, q.state))),
      );
      const ph = state.history.markets[s.market];
      if (ph) {
        c.price.setData([ph.t, ph.bid, ph.ask, ph.ownBid, ph.ownAsk]);
        c.priceBox.dataset.points = String(ph.t.length);
      }
      const sh = state.history.strategies[s.id];
      if (sh) {
        c.pnl.setData([sh.t, sh.net, sh.realised, sh.inventory]);
        c.pnlBox.dataset.points = String(sh.t.length);
      }
    }
    $('#rate-limits tbody').replaceChildren(
      ...state.rateLimits.map((b) => el('tr', { 'data-bucket': b.bucket }, el('td', {}, b.bucket), el('td', {}, String(b.inWindow)), el('td', {}, String(b.limit)), el('td', {}, `${Math.round(b.headroom * 100)} %`), el('td', {}, String(b.queued)))),
    );
    $('#events').replaceChildren(...state.events.map((e) => el('li', { 'data-type': e.type }, `${new Date(e.at).toLocaleTimeString()} ${e.strategy ? `[${e.strategy}] ` : ''}${e.text}`)));
    document.body.dataset.updated = String(state.now);
  }

  async function tick() {
    try {
      const res = await fetch('/api/state', { headers: tokenInput.value ? { authorization: `Bearer ${tokenInput.value}` } : {} });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      render(await res.json());
    } catch (error) {
      say(`the daemon does not answer: ${error.message}`, true);
    } finally {
      setTimeout(tick, 1000);
    }
  }
  void tick();
})();
