fn main(){ println!("hi"); }
