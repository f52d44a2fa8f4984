use std::fmt;
pub struct Point{pub x:f64,pub y:f64}
impl Point{
pub fn new(x:f64,y:f64)->Self{Point{x,y}}
    pub fn dist(&self,other:&Point)->f64{((self.x-other.x).powi(2)+(self.y-other.y).powi(2)).sqrt()}
        }
impl fmt::Display for Point{fn fmt(&self,f:&mut fmt::Formatter<'_>)->fmt::Result{write!(f,"({}, {})",self.x,self.y)}}
pub fn longest_name_function_with_many_arguments(first_argument: u32, second_argument: u32, third_argument: u32) -> u32 { first_argument + second_argument + third_argument }
const TABLE: [u32; 3] = [1,2,3,];
