import Glibc

exit(Daemon.run(Array(CommandLine.arguments.dropFirst())))
