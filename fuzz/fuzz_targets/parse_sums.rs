//! Any bytes given to the `.sum` parser: an error with a position inside the text and
//! a one-line message, or a model that passes the library's own model check.
#![no_main]

use libfuzzer_sys::fuzz_target;
use polytile::sums;

fuzz_target!(|data: &[u8]| {
    match sums::parse_bytes(data, "fuzz.sum") {
        Err(e) => {
            let message = e.to_string();
            assert!(!message.contains('\n'), "{message:?}");
            let (line, column) = e.position().expect("parse errors have a position");
            assert!(line >= 1 && column >= 1, "{message}");
            assert!(line <= data.split(|&b| b == b'\n').count() + 1, "{message}");
        }
        Ok(model) => {
            if let Err(e) = model.check() {
                panic!("the parser made a model its own check refuses: {e}");
            }
        }
    }
});
