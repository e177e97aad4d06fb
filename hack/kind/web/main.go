// Command web serves a directory over HTTP: the Guestbook's web server in the e2e suite on kind,
// where no nginx image can be pulled. It serves /usr/share/nginx/html on port 80 (where the
// Guestbook mounts its page, as nginx would) and logs one line per request. With -say it prints
// one line and exits 0 instead: a Job's workload in the kind backend's tests; with -write as well,
// it writes that line to a file (on a volume) instead, and with -cat it prints a file's content:
// the storage tests' writer and reader.
package main

import (
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
)

func main() {
	dir := flag.String("dir", "/usr/share/nginx/html", "directory to serve")
	addr := flag.String("listen", ":80", "address to listen on")
	say := flag.String("say", "", "print this line and exit")
	write := flag.String("write", "", "with -say: write the line to this file instead, and exit")
	cat := flag.String("cat", "", "print this file's content and exit")
	flag.Parse()
	if *cat != "" {
		content, err := os.ReadFile(*cat)
		if err != nil {
			log.Fatalf("cannot read %s: %v", *cat, err)
		}
		fmt.Print(string(content))
		return
	}
	if *write != "" {
		if err := os.WriteFile(*write, []byte(*say+"\n"), 0o644); err != nil {
			log.Fatalf("cannot write %s: %v", *write, err)
		}
		return
	}
	if *say != "" {
		fmt.Println(*say)
		return
	}
	files := http.FileServer(http.Dir(*dir))
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Printf("%s %s %s", r.RemoteAddr, r.Method, r.URL.Path)
		files.ServeHTTP(w, r)
	})
	log.Printf("serving %s on %s", *dir, *addr)
	log.Fatal(http.ListenAndServe(*addr, handler))
}
