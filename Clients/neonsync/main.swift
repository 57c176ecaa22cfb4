import Glibc

print("neonsync: the terminal client is being assembled; see neonsyncd for the server")
exit(1)
