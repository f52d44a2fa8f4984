package messy
import "fmt"
type Point struct{X,Y int
	Label string `json:"label"`}
func ( p *Point ) Move( dx int,dy int ) { p.X+=dx; p.Y+=dy
	if p.X>100{p.X=100}
	fmt.Println( "moved",p.Label, 0X1F, 1E3 )
}
func Sum(values ...int,
) (total int) {
for _,v:=range values{total+=v}
	return
}
var registry = map[string]int{"a":1,
	"b":2}
const (
  A = iota
      B
)
type Shape interface{Area() float64;Perimeter() float64}
