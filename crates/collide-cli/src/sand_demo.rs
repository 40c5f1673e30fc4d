//! The falling-sand part of the demo report: a world where sand and water
//! pour into a stone basin, a wooden shelf catches fire and burns into
//! smoke, drawn as an animation with its chunk grid and each tick's dirty
//! rectangles, and a chart of each material's count over time.

use crate::chart::{Scale, Series, Stroke, line_chart};
use collide_sand::{Burning, Material, MaterialId, Materials, Motion, SandSettings, SandWorld};
use std::fmt::Write as _;

const WIDTH: u32 = 160;
const HEIGHT: u32 = 96;
const CHUNK: u32 = 32;
const TICKS: u32 = 900;
/// Ticks between the frames of the animation.
const EVERY: u32 = 6;
/// The tick the fire is lit.
const LIT: u32 = 300;

struct Palette {
    ids: Vec<MaterialId>,
    names: Vec<&'static str>,
    colours: Vec<&'static str>,
}

fn world() -> (SandWorld, Palette) {
    let valid = "the demo's materials are valid";
    let mut t = Materials::new();
    let add = |t: &mut Materials, m: Material| t.add(m).expect(valid);
    let stone = add(
        &mut t,
        Material::new("stone", 30.0, Motion::Static).expect(valid),
    );
    let sand = add(
        &mut t,
        Material::new("sand", 16.0, Motion::Powder).expect(valid),
    );
    let water = add(
        &mut t,
        Material::new("water", 10.0, Motion::Liquid).expect(valid),
    );
    let smoke = add(
        &mut t,
        Material::new("smoke", 0.3, Motion::Gas).expect(valid),
    );
    let wood = add(
        &mut t,
        Material::new("wood", 8.0, Motion::Static)
            .expect(valid)
            .flammable(),
    );
    let burning = Burning {
        spread: 0.6,
        burn_out: 0.006,
        leaves: smoke,
    };
    let fire = add(
        &mut t,
        Material::new("fire", 0.5, Motion::Static)
            .expect(valid)
            .burning(burning)
            .expect(valid),
    );
    let settings = SandSettings::new(WIDTH, HEIGHT)
        .expect(valid)
        .with_chunk(CHUNK)
        .expect(valid)
        .with_seed(5);
    let mut w = SandWorld::new(settings, t).expect(valid);
    let mut put = |x: i64, y: i64, m| w.set(x, y, m).expect("inside the world");
    // A basin, a ledge in the middle and a wooden shelf on the right.
    for x in 0..i64::from(WIDTH) {
        put(x, 0, stone);
    }
    for y in 0..40 {
        put(0, y, stone);
        put(i64::from(WIDTH) - 1, y, stone);
    }
    for x in 60..100 {
        put(x, 30, stone);
    }
    for x in 104..150 {
        put(x, 56, wood);
    }
    let palette = Palette {
        ids: vec![stone, sand, water, smoke, wood, fire],
        names: vec!["stone", "sand", "water", "smoke", "wood", "fire"],
        colours: vec![
            "#6d6d68", "#d9b35f", "#3b78c4", "#b9b9c4", "#8a5a2b", "#e8562a",
        ],
    };
    (w, palette)
}

/// Run-length codes of a frame's cells, row by row from the bottom:
/// `[material, count, material, count, ...]`.
fn encode(world: &SandWorld, out: &mut String) {
    out.push('[');
    let (mut last, mut run, mut first) = (u8::MAX, 0u32, true);
    let mut flush = |out: &mut String, m: u8, n: u32| {
        if n > 0 {
            let _ = write!(out, "{}{m},{n}", if first { "" } else { "," });
            first = false;
        }
    };
    for row in world.rows() {
        for c in row {
            if c == last {
                run += 1;
            } else {
                flush(out, last, run);
                (last, run) = (c, 1);
            }
        }
    }
    flush(out, last, run);
    out.push(']');
}

/// The animation's data (a JavaScript object) and the count series.
fn run() -> (String, Vec<Series>, Palette) {
    let (mut w, palette) = world();
    let (sand, water, fire) = (palette.ids[1], palette.ids[2], palette.ids[5]);
    let mut frames = String::from("[");
    let mut counts: Vec<Vec<(f64, f64)>> = vec![Vec::new(); palette.ids.len()];
    for tick in 0..TICKS {
        if tick < 420 && tick % 2 == 0 {
            w.set(40, 90, sand).expect("inside");
        }
        if tick < 420 && tick % 3 == 0 {
            w.set(154, 90, water).expect("inside");
        }
        if tick == LIT {
            w.set(103, 56, fire).expect("inside");
        }
        w.tick();
        if tick % EVERY == 0 {
            let _ = write!(frames, "{{t:{tick},c:");
            encode(&w, &mut frames);
            frames.push_str(",d:[");
            let rects: Vec<String> = w
                .dirty_rects()
                .filter(|r| !r.is_empty())
                .map(|r| format!("[{},{},{},{}]", r.x0, r.y0, r.x1, r.y1))
                .collect();
            frames.push_str(&rects.join(","));
            frames.push_str("]},");
            let all = w.counts();
            for (k, id) in palette.ids.iter().enumerate() {
                counts[k].push((f64::from(tick), all[usize::from(id.index())] as f64));
            }
        }
    }
    frames.push(']');
    let colours = palette
        .colours
        .iter()
        .map(|c| format!("'{c}'"))
        .collect::<Vec<_>>()
        .join(",");
    let data = format!(
        "{{w:{WIDTH},h:{HEIGHT},chunk:{CHUNK},colours:['#ffffff',{colours}],frames:{frames}}}"
    );
    let series = palette
        .names
        .iter()
        .zip(&palette.colours)
        .zip(counts)
        .filter(|((name, _), _)| **name != "stone")
        .map(|((name, colour), points)| Series {
            name: name.to_string(),
            colour,
            points,
            stroke: Stroke::Line,
        })
        .collect();
    (data, series, palette)
}

/// The falling-sand section of the demo page.
pub fn sand_section() -> String {
    let (data, series, palette) = run();
    let legend: String = palette
        .names
        .iter()
        .zip(&palette.colours)
        .map(|(n, c)| format!("<span style=\"color:{c}\">■</span> {n} "))
        .collect();
    let mut html = format!(
        "<h3>Falling sand</h3>\n<p>A {WIDTH} by {HEIGHT} cell world in chunks of {CHUNK}: sand and water pour into a stone basin for 420 ticks, and at tick {LIT} a fire is lit at the left end of the wooden shelf; it spreads along the wood and burns out into smoke, which rises. Thin lines are the chunk grid; red outlines are the cells each chunk scans in that tick (its dirty rectangle: the cells within one of a change in the tick before). Settled sand and water are no longer scanned.</p>\n<canvas id=\"sand\" width=\"{}\" height=\"{}\"></canvas>\n<div class=\"controls\"><button id=\"sand-play\">pause</button> <span id=\"sand-info\"></span> · {legend}</div>\n<script>const SAND = {data};</script>\n{SAND_PLAYER}",
        WIDTH * 5,
        HEIGHT * 5
    );
    html.push_str(&line_chart(
        "Cells of each material, by tick",
        "tick",
        &series,
        &[],
        Scale::Linear,
    ));
    html.push_str("<p>Without reactions the counts stay constant; here the fire turns wood into fire and fire into smoke, and the pours add sand and water until tick 420.</p>\n");
    html
}

const SAND_PLAYER: &str = r#"<script>
(() => {
  const canvas = document.getElementById('sand'), ctx = canvas.getContext('2d');
  const button = document.getElementById('sand-play'), info = document.getElementById('sand-info');
  const s = canvas.width / SAND.w;
  let frame = 0, playing = true;
  function draw() {
    const f = SAND.frames[frame];
    ctx.fillStyle = '#ffffff'; ctx.fillRect(0, 0, canvas.width, canvas.height);
    let i = 0;
    for (let k = 0; k < f.c.length; k += 2) {
      const m = f.c[k], n = f.c[k + 1];
      if (m !== 0) {
        ctx.fillStyle = SAND.colours[m];
        for (let j = i; j < i + n; j++) {
          const x = j % SAND.w, y = Math.floor(j / SAND.w);
          ctx.fillRect(x * s, canvas.height - (y + 1) * s, s, s);
        }
      }
      i += n;
    }
    ctx.strokeStyle = '#d0d0d0'; ctx.lineWidth = 1;
    for (let x = SAND.chunk; x < SAND.w; x += SAND.chunk) { ctx.beginPath(); ctx.moveTo(x * s, 0); ctx.lineTo(x * s, canvas.height); ctx.stroke(); }
    for (let y = SAND.chunk; y < SAND.h; y += SAND.chunk) { ctx.beginPath(); ctx.moveTo(0, canvas.height - y * s); ctx.lineTo(canvas.width, canvas.height - y * s); ctx.stroke(); }
    ctx.strokeStyle = '#c2453d'; ctx.lineWidth = 1.5;
    f.d.forEach(r => ctx.strokeRect(r[0] * s, canvas.height - (r[3] + 1) * s, (r[2] - r[0] + 1) * s, (r[3] - r[1] + 1) * s));
    info.textContent = `tick ${f.t} · ${f.d.length} chunks scanned`;
  }
  button.onclick = () => { playing = !playing; button.textContent = playing ? 'pause' : 'play'; };
  setInterval(() => { if (playing) { frame = (frame + 1) % SAND.frames.length; draw(); } }, 50);
  draw();
})();
</script>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_pours_burns_and_settles() {
        let (data, series, _) = run();
        let last = |name: &str| {
            series
                .iter()
                .find(|s| s.name == name)
                .and_then(|s| s.points.last())
                .expect("every series has points")
                .1
        };
        assert_eq!(last("sand"), 210.0);
        assert_eq!(last("water"), 140.0);
        assert_eq!(last("wood"), 0.0, "the shelf burned");
        assert!(last("smoke") > 40.0);
        assert!(last("smoke") > 0.0);
        assert!(data.len() < 600_000, "{} bytes", data.len());
    }
}
