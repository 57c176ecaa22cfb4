import Glibc

exit(Client.run(Array(CommandLine.arguments.dropFirst())))
