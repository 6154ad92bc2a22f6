//! The `norobots-testsite` binary: origin lines, the JSON log, and how it
//! stops.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn get(url: &str, path: &str) -> String {
    let addr = url.strip_prefix("http://").unwrap();
    let mut tcp = TcpStream::connect(addr).unwrap();
    write!(
        tcp,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUser-Agent: wget/1.21\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).unwrap();
    answer
}

fn temp_log(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!(
        "norobots-testsite-{}-{name}.jsonl",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn serves_logs_and_stops_on_sigterm() {
    let log = temp_log("term");
    let mut child = Command::new(env!("CARGO_BIN_EXE_norobots-testsite"))
        .args(["--scenario", "standard", "--log"])
        .arg(&log)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let origins: Vec<(String, String)> = (0..10)
        .map(|_| {
            let line = lines.next().unwrap().unwrap();
            let (name, url) = line.split_once(' ').unwrap();
            (name.to_owned(), url.to_owned())
        })
        .collect();
    let names: Vec<&str> = origins.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a", "b", "c", "d", "e", "f", "g", "h", "i", "m"]);
    assert!(origins
        .iter()
        .all(|(_, u)| u.starts_with("http://127.0.0.1:")));

    assert!(get(&origins[0].1, "/index.html").starts_with("HTTP/1.1 200"));
    assert!(get(&origins[1].1, "/robots.txt").starts_with("HTTP/1.1 404"));

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");

    let text = std::fs::read_to_string(&log).unwrap();
    let entries: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0]["origin"], "a");
    assert_eq!(entries[0]["path"], "/index.html");
    assert_eq!(entries[0]["status"], 200);
    assert_eq!(entries[0]["user_agent"], "wget/1.21");
    assert_eq!(entries[1]["origin"], "b");
    assert_eq!(entries[1]["status"], 404);
    assert!(entries[1]["time"].as_f64().unwrap() >= entries[0]["time"].as_f64().unwrap());
    let _ = std::fs::remove_file(&log);
}

#[test]
fn exits_by_itself_after_the_time() {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_norobots-testsite"))
        .args([
            "--scenario",
            "generated",
            "--pages",
            "50",
            "--exit-after",
            "0.5",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(started.elapsed() >= Duration::from_millis(500));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("gen http://127.0.0.1:"), "{stdout}");
    assert_eq!(stdout.lines().count(), 1);
}

#[test]
fn a_bad_duration_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_norobots-testsite"))
        .arg("--exit-after=-1")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--exit-after"));
}
