fn main() {
    let t = std::time::Instant::now();
    let p = match chess::turn::turn_program() {
        Ok(p) => p,
        Err(e) => {
            println!("ERR {e}");
            return;
        }
    };
    let x = regex_vm::Executor::new(&p, regex_vm::Config::default()).unwrap();
    println!(
        "{} rewrites, {} distinct, built in {:?}",
        p.len(),
        p.distinct_patterns(),
        t.elapsed()
    );
    let mut s = String::new();
    let inputs: Vec<String> = std::env::args().skip(1).collect();
    let st = x.run(&mut s).unwrap();
    println!("{s}\n[{:?}]", st.elapsed);
    for i in inputs {
        s.push_str(&i);
        s.push('\n');
        let st = x.run(&mut s).unwrap();
        println!(
            "> {i}\n{s}\n[{:?}, peak {} bytes]",
            st.elapsed, st.peak_state_bytes
        );
    }
}
