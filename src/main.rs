fn main() -> std::process::ExitCode {
    quizz::cli::main()
}
