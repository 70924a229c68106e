// Axis helpers for the dashboard's uPlot charts. uPlot gives a y axis a fixed 50 px by default, so a price of 30,020
// was drawn as "0,020" (the rest cut off at the canvas edge), and its time axis writes the date on a second line
// under the first tick, over the next tick's label. Here: axes as wide as their longest label, labels with the
// decimals their spacing needs (whole prices as "30,020"), and times as one-line "HH:MM:SS".
// Each chart's container gets the labels last drawn (data-y-labels, data-x-labels) so a test can read what uPlot
// painted on the canvas.
'use strict';
(function () {
  /** Decimals that tell apart ticks `step` apart (0 for whole prices). */
  function decimalsFor(splits) {
    if (splits.length < 2) return 0;
    const step = Math.abs(splits[1] - splits[0]);
    if (!(step > 0)) return 0;
    return Math.max(0, Math.min(8, -Math.floor(Math.log10(step) + 1e-9)));
  }

  /** A y-axis `values` function: grouped thousands, the decimals the spacing needs; records the labels on `box`. */
  function numberValues(box, key) {
    return (u, splits) => {
      const d = decimalsFor(splits);
      const labels = splits.map((v) => (v == null ? '' : v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })));
      box.dataset[key] = JSON.stringify(labels);
      return labels;
    };
  }

  /** An x-axis `values` function for Unix-second times: local HH:MM:SS on one line. */
  function timeValues(box) {
    return (u, splits) => {
      const labels = splits.map((t) => (t == null ? '' : new Date(t * 1000).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })));
      box.dataset.xLabels = JSON.stringify(labels);
      return labels;
    };
  }

  /** An axis `size` function: tick length + gap + the widest label as drawn in the axis font (uPlot's autosize recipe). */
  function sizeToLabels(box, key) {
    return (u, values, axisIdx, cycleNum) => {
      const axis = u.axes[axisIdx];
      // uPlot calls this until the size settles; past the first round keep what was measured
      if (cycleNum > 1) return axis._size;
      let size = axis.ticks.size + axis.gap;
      const longest = (values || []).reduce((a, v) => (String(v).length > a.length ? String(v) : a), '');
      if (longest !== '') {
        u.ctx.font = axis.font[0];
        const px = u.ctx.measureText(longest).width / devicePixelRatio;
        size += px;
        box.dataset[key] = String(Math.ceil(px));
      }
      return Math.ceil(size) + 4;
    };
  }

  window.chartAxes = { numberValues, timeValues, sizeToLabels };
})();
