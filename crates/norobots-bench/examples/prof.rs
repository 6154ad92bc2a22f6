// Uncommitted profiling harness: `prof MODE [REPS]`, prints ns per unit.
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map(String::as_str).unwrap_or("both");
    let reps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let corpus = if mode.starts_with("scale") {
        norobots_bench::built_in()
    } else {
        norobots_bench::load(norobots_bench::file_count())
    };
    let bytes = corpus.total_bytes() as f64;
    let agent = norobots_bench::AGENT;
    match mode {
        "oneshot" => {
            let mut best = f64::MAX;
            for _ in 0..reps {
                let t = Instant::now();
                let mut n = 0usize;
                for d in &corpus.docs {
                    n += usize::from(norobots::is_allowed(&d.body, agent, d.first_url()));
                }
                black_box(n);
                best = best.min(t.elapsed().as_secs_f64());
            }
            println!(
                "oneshot: {:.3} us/file",
                best * 1e6 / corpus.docs.len() as f64
            );
        }
        "parse" | "compile" | "both" | "cold" => {
            let parsed: Vec<norobots::Robots> = corpus
                .docs
                .iter()
                .map(|d| norobots::Robots::parse(&d.body))
                .collect();
            let mut best = f64::MAX;
            for _ in 0..reps {
                let t = Instant::now();
                let mut n = 0usize;
                for (i, d) in corpus.docs.iter().enumerate() {
                    match mode {
                        "parse" => n += black_box(norobots::Robots::parse(&d.body)).groups().len(),
                        "compile" => n += black_box(parsed[i].matcher(agent)).rule_count(),
                        "cold" => {
                            let r = norobots::Robots::parse(&d.body);
                            n += usize::from(r.matcher(agent).is_allowed(d.first_url()))
                        }
                        _ => {
                            let r = norobots::Robots::parse(&d.body);
                            n += black_box(r.matcher(agent)).rule_count()
                        }
                    }
                }
                black_box(n);
                best = best.min(t.elapsed().as_secs_f64());
            }
            if mode == "cold" {
                println!(
                    "{mode}: {:.3} us/file",
                    best * 1e6 / corpus.docs.len() as f64
                );
            } else {
                println!("{mode}: {:.1} MB/s", bytes / best / 1e6);
            }
        }
        "warm" => {
            let ms: Vec<_> = corpus
                .docs
                .iter()
                .map(|d| norobots::Robots::parse(&d.body).matcher(agent))
                .collect();
            let n_urls = corpus.total_urls() as f64;
            let mut best = f64::MAX;
            for _ in 0..reps {
                let t = Instant::now();
                let mut n = 0usize;
                for (m, d) in ms.iter().zip(&corpus.docs) {
                    for u in &d.urls {
                        n += usize::from(m.is_allowed(u));
                    }
                }
                black_box(n);
                best = best.min(t.elapsed().as_secs_f64());
            }
            println!("warm: {:.1} ns/url", best * 1e9 / n_urls);
        }
        s if s.starts_with("scale") => {
            let rules: usize = s[5..].parse().unwrap();
            let urls = norobots_bench::synthetic::urls(1000, 10_000);
            let doc = norobots_bench::synthetic::doc(rules, urls);
            let m = norobots::Robots::parse(&doc.body).matcher(agent);
            let mut best = f64::MAX;
            for _ in 0..reps * 20 {
                let t = Instant::now();
                let mut n = 0usize;
                for u in &doc.urls {
                    n += usize::from(m.is_allowed(u));
                }
                black_box(n);
                best = best.min(t.elapsed().as_secs_f64());
            }
            println!("{s}: {:.1} ns/url", best * 1e9 / doc.urls.len() as f64);
        }
        "stats" => {
            let mut v: Vec<(f64, usize, usize, String)> = corpus
                .docs
                .iter()
                .map(|d| {
                    let r = norobots::Robots::parse(&d.body);
                    let t = Instant::now();
                    let mut rc = 0;
                    for _ in 0..5 {
                        rc = black_box(r.matcher(agent)).rule_count();
                    }
                    (
                        t.elapsed().as_secs_f64() / 5.0,
                        d.body.len(),
                        rc,
                        d.name.clone(),
                    )
                })
                .collect();
            let total: f64 = v.iter().map(|x| x.0).sum();
            let rules: usize = v.iter().map(|x| x.2).sum();
            println!(
                "files {} bytes {} rules {} compile total {:.1} ms",
                v.len(),
                bytes,
                rules,
                total * 1e3
            );
            v.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
            let mut acc = 0.0;
            for (i, x) in v.iter().enumerate().take(30) {
                acc += x.0;
                println!(
                    "{i} {:.1}us {}B {} rules cum {:.1}% {}",
                    x.0 * 1e6,
                    x.1,
                    x.2,
                    acc / total * 100.0,
                    x.3
                );
            }
            let zero = v.iter().filter(|x| x.2 == 0).count();
            let t0: f64 = v.iter().filter(|x| x.2 == 0).map(|x| x.0).sum();
            println!("zero-rule files {zero} time {:.1}%", t0 / total * 100.0);
        }
        "one" => {
            let name = std::env::var("DOC").unwrap();
            let d = corpus.docs.iter().find(|d| d.name == name).unwrap();
            let r = norobots::Robots::parse(&d.body);
            let mut best = f64::MAX;
            for _ in 0..reps {
                let t = Instant::now();
                black_box(r.matcher(agent));
                best = best.min(t.elapsed().as_secs_f64());
            }
            println!(
                "one {name}: compile {:.1} us, {:.1} MB/s",
                best * 1e6,
                d.body.len() as f64 / best / 1e6
            );
        }
        _ => panic!("mode"),
    }
}
#[allow(dead_code)]
fn stats() {}
